/* Step synthesizer target: the canvas, its layout of panels and the animation frame loop. */
(function (modules) {
  'use strict';

  var drawScope = modules.scope.drawScope;
  var drawSpectrum = modules.spectrum.drawSpectrum;
  var drawControls = modules.controls.drawControls;
  var drawSteps = modules.steps.drawSteps;

  // sources: {state(), unlocked(), engine}, read on every frame because the app replaces its state.
  function create(canvas, sources) {
    var context = canvas.getContext('2d');
    var view = { width: 1, height: 1, ratio: 1 };
    var scope = { gain: 2 };

    function resize() {
      var ratio = Math.min(window.devicePixelRatio || 1, 2);
      view.ratio = ratio;
      view.width = Math.max(1, window.innerWidth);
      view.height = Math.max(1, window.innerHeight);
      canvas.width = Math.floor(view.width * ratio);
      canvas.height = Math.floor(view.height * ratio);
    }

    function draw(time) {
      context.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
      var W = view.width,
        H = view.height;
      var background = context.createRadialGradient(W * 0.3, -H * 0.2, 0, W * 0.5, H * 0.4, Math.max(W, H));
      background.addColorStop(0, '#1b2147');
      background.addColorStop(0.5, '#0e1226');
      background.addColorStop(1, '#080a14');
      context.fillStyle = background;
      context.fillRect(0, 0, W, H);

      var scene = {
        context: context,
        state: sources.state(),
        audio: sources.engine.audio(),
        unlocked: sources.unlocked(),
        engine: sources.engine,
        scope: scope,
        visualStep: sources.engine.advanceVisualStep(),
      };
      var margin = 20;
      var top = 64;
      var stepsHeight = Math.min(150, Math.max(90, H * 0.19));
      var controlsHeight = Math.min(120, Math.max(86, H * 0.15));
      var stepsY = H - margin - stepsHeight;
      var controlsY = stepsY - 14 - controlsHeight;
      var visualHeight = controlsY - 14 - top;
      var scopeWidth = (W - margin * 2 - 14) * 0.58;
      if (visualHeight > 60) {
        drawScope(scene, margin, top, scopeWidth, visualHeight, time);
        drawSpectrum(scene, margin + scopeWidth + 14, top, W - margin * 2 - 14 - scopeWidth, visualHeight);
      }
      drawControls(scene, margin, controlsY, W - margin * 2, controlsHeight);
      drawSteps(scene, margin, stepsY, W - margin * 2, stepsHeight);
    }

    function frame(time) {
      draw(time);
      window.requestAnimationFrame(frame);
    }

    return { resize: resize, draw: draw, frame: frame };
  }

  modules.visualizer = { create: create };
})((window.SynthModules = window.SynthModules || {}));
