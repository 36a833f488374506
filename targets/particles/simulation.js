/* Particle field target: seeding and moving the particles (flow, auto and vortex modes) in a wrapping box. */
(function (modules) {
  'use strict';

  var HALF = 6; // half the edge of the simulated box, world units (metres)
  var VORTEX_CORE = 2; // radius of solid-body rotation at the vortex centre

  // Positions, velocities and per-particle randomness; the parameters come with every step.
  function create(maxParticles) {
    var seeded = 0;
    var clock = 0;
    var x = new Float32Array(maxParticles);
    var y = new Float32Array(maxParticles);
    var z = new Float32Array(maxParticles);
    var vx = new Float32Array(maxParticles);
    var vy = new Float32Array(maxParticles);
    var vz = new Float32Array(maxParticles);
    var phase = new Float32Array(maxParticles);
    var jitter = new Float32Array(maxParticles);

    function seedRange(from, to) {
      for (var i = from; i < to; i++) {
        x[i] = (Math.random() * 2 - 1) * HALF;
        y[i] = (Math.random() * 2 - 1) * HALF;
        z[i] = (Math.random() * 2 - 1) * HALF;
        vx[i] = vy[i] = vz[i] = 0;
        phase[i] = Math.random() * Math.PI * 2;
        jitter[i] = Math.random();
      }
      seeded = Math.max(seeded, to);
    }

    function wrap(value) {
      var span = HALF * 2;
      return ((((value + HALF) % span) + span) % span) - HALF;
    }

    function stepFlow(state, i, dt, wavy) {
      var speed = state.speed;
      if (wavy) {
        vx[i] = speed * (0.85 + 0.3 * jitter[i]);
        vy[i] = speed * 0.16 * Math.sin(0.32 * x[i] + 0.9 * clock + phase[i]);
        vz[i] = speed * 0.16 * Math.cos(0.27 * y[i] + 0.7 * clock + 1.3 * phase[i]);
      } else {
        vx[i] = speed;
        vy[i] = 0;
        vz[i] = 0;
      }
      x[i] = wrap(x[i] + vx[i] * dt);
      y[i] = wrap(y[i] + vy[i] * dt);
      z[i] = wrap(z[i] + vz[i] * dt);
    }

    function stepVortex(state, i, dt) {
      var radius = Math.sqrt(x[i] * x[i] + z[i] * z[i]);
      var tangential = state.speed * (0.85 + 0.3 * jitter[i]) * Math.min(1, radius / VORTEX_CORE);
      var angle = radius > 1e-6 ? (tangential / radius) * dt : 0;
      var cos = Math.cos(angle);
      var sin = Math.sin(angle);
      var nx = x[i] * cos - z[i] * sin;
      var nz = x[i] * sin + z[i] * cos;
      var unit = radius > 1e-6 ? tangential / radius : 0;
      vx[i] = -z[i] * unit;
      vz[i] = x[i] * unit;
      vy[i] = state.speed * 0.06 * Math.sin(0.8 * clock + phase[i]);
      x[i] = nx;
      z[i] = nz;
      y[i] = wrap(y[i] + vy[i] * dt);
    }

    function step(state, dt) {
      clock += dt;
      var count = Math.min(state.particle_count, seeded);
      for (var i = 0; i < count; i++) {
        if (state.mode === 'vortex') stepVortex(state, i, dt);
        else stepFlow(state, i, dt, state.mode === 'auto');
      }
    }

    return {
      x: x,
      y: y,
      z: z,
      vx: vx,
      vy: vy,
      vz: vz,
      phase: phase,
      jitter: jitter,
      seeded: function () {
        return seeded;
      },
      seedRange: seedRange,
      step: step,
    };
  }

  modules.simulation = { HALF: HALF, create: create };
})((window.ParticlesModules = window.ParticlesModules || {}));
