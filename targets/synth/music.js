/* Step synthesizer target: notes, scales and melodies, and the conversions between MIDI notes, names, frequencies and decibels. */
(function (modules) {
  'use strict';

  var NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

  var SCALES = {
    minor: [0, 2, 3, 5, 7, 8, 10],
    major: [0, 2, 4, 5, 7, 9, 11],
    dorian: [0, 2, 3, 5, 7, 9, 10],
    phrygian: [0, 1, 3, 5, 7, 8, 10],
    pentatonic: [0, 3, 5, 7, 10],
    blues: [0, 3, 5, 6, 7, 10],
  };

  // Scale degrees per step (0 = root; the scale repeats an octave up past its last degree).
  var MELODIES = {
    arpeggio: [0, 2, 4, 7, 9, 7, 4, 2, 0, 2, 4, 7, 11, 9, 7, 4],
    bassline: [0, 0, 7, 0, 0, 7, 4, 0, 0, 0, 7, 0, 5, 4, 3, 1],
    rise: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7],
    bounce: [0, 9, 2, 9, 4, 9, 2, 9, 0, 9, 3, 9, 5, 9, 4, 9],
  };

  // `settings` are the parameters in effect (root_note, octave, scale, melody, tempo).
  function rootMidi(settings) {
    return 12 * (settings.octave + 1) + NOTE_NAMES.indexOf(settings.root_note);
  }

  function stepMidi(settings, step) {
    var scale = SCALES[settings.scale] || SCALES.minor;
    var degree = (MELODIES[settings.melody] || MELODIES.arpeggio)[step];
    return rootMidi(settings) + scale[degree % scale.length] + 12 * Math.floor(degree / scale.length);
  }

  function midiName(midi) {
    return NOTE_NAMES[((midi % 12) + 12) % 12] + (Math.floor(midi / 12) - 1);
  }

  function midiFrequency(midi) {
    return 440 * Math.pow(2, (midi - 69) / 12);
  }

  function stepSeconds(settings) {
    return 60 / settings.tempo / 4;
  }

  function dbToGain(db) {
    return db <= -60 ? 0 : Math.pow(10, db / 20);
  }

  modules.music = {
    rootMidi: rootMidi,
    stepMidi: stepMidi,
    midiName: midiName,
    midiFrequency: midiFrequency,
    stepSeconds: stepSeconds,
    dbToGain: dbToGain,
  };
})((window.SynthModules = window.SynthModules || {}));
