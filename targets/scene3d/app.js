/*
 * 3D scene target: a tiny hand-written WebGL renderer. One directional light (the sun) with
 * Blinn-Phong shading, hemisphere ambient light, ACES tone mapping, planar projected shadows
 * (stencil-masked so overlaps do not darken twice), a procedural ground grid with distance fog
 * and a sky with a sun disc. Wireframe mode draws polygon edges with barycentric coordinates.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.Scene3dModules;
  var normalize = modules.vectors.normalize;
  var multiply = modules.vectors.multiply;
  var identity = modules.vectors.identity;
  var translation = modules.vectors.translation;
  var rotationY = modules.vectors.rotationY;
  var rotationX = modules.vectors.rotationX;
  var rotationZ = modules.vectors.rotationZ;
  var perspective = modules.vectors.perspective;
  var lookAt = modules.vectors.lookAt;
  var invert = modules.vectors.invert;
  var hexToLinear = modules.vectors.hexToLinear;
  var sphereMesh = modules.geometry.sphereMesh;
  var torusMesh = modules.geometry.torusMesh;
  var knotMesh = modules.geometry.knotMesh;
  var roundedCubeMesh = modules.geometry.roundedCubeMesh;
  var groundMesh = modules.geometry.groundMesh;
  var MESH_VERTEX = modules.shaders.MESH_VERTEX;
  var OBJECT_FRAGMENT = modules.shaders.OBJECT_FRAGMENT;
  var GROUND_FRAGMENT = modules.shaders.GROUND_FRAGMENT;
  var SHADOW_VERTEX = modules.shaders.SHADOW_VERTEX;
  var SHADOW_FRAGMENT = modules.shaders.SHADOW_FRAGMENT;
  var SKY_VERTEX = modules.shaders.SKY_VERTEX;
  var SKY_FRAGMENT = modules.shaders.SKY_FRAGMENT;

  var MAIN_CENTER = [0, 1.7, 0];
  var SKY_ZENITH = [0.045, 0.09, 0.23];
  var SKY_HORIZON = [0.72, 0.56, 0.48];
  var GROUND_ALBEDO = [0.2, 0.2, 0.215];
  var FOG_NEAR = 16;
  var FOG_FAR = 75;
  var SHADOW_JITTER = [
    [0, 0],
    [0.028, 0],
    [-0.028, 0],
    [0, 0.028],
    [0, -0.028],
    [0.014, 0.014],
    [-0.014, -0.014],
    [0.04, -0.02],
    [-0.04, 0.02],
  ];

  var state = params.defaults();
  var isReady = false;
  var angle = 0.6; // main object's spin, radians
  var lastTime = 0;

  var canvas = document.getElementById('scene');
  var notice = document.getElementById('notice');
  var hud = {
    badge: document.getElementById('hud-badge'),
    shape: document.getElementById('hud-shape'),
    fov: document.getElementById('hud-fov'),
    spin: document.getElementById('hud-spin'),
    camera: document.getElementById('hud-camera'),
  };

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  // All-or-nothing: one bad value leaves every parameter as it was.
  function apply(changes) {
    var next = params.merge(state, changes);
    commit(next);
  }

  function reset() {
    commit(params.defaults());
  }

  function commit(next) {
    state = next;
    updateHud();
  }

  // ---- small vector / matrix helpers (column-major 4×4, as WebGL expects) ----------------------
  // ---- geometry: de-indexed triangles, 9 floats a vertex (position, normal, barycentric) --------
  // ---- shaders ----------------------------------------------------------------------------
  // ---- WebGL resources --------------------------------------------------------------------

  var gl = null;
  var programs = null;
  var meshes = null;
  var skyBuffer = null;
  var view = { width: 1, height: 1 };

  function compile(type, source) {
    var shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
      throw new Error('Shader failed to compile: ' + gl.getShaderInfoLog(shader));
    }
    return shader;
  }

  function program(vertexSource, fragmentSource) {
    var handle = gl.createProgram();
    gl.attachShader(handle, compile(gl.VERTEX_SHADER, vertexSource));
    gl.attachShader(handle, compile(gl.FRAGMENT_SHADER, fragmentSource));
    gl.linkProgram(handle);
    if (!gl.getProgramParameter(handle, gl.LINK_STATUS) && !gl.isContextLost()) {
      throw new Error('Shader program failed to link: ' + gl.getProgramInfoLog(handle));
    }
    var info = { handle: handle, attributes: {}, uniforms: {} };
    var attributeCount = gl.getProgramParameter(handle, gl.ACTIVE_ATTRIBUTES) || 0;
    for (var i = 0; i < attributeCount; i++) {
      var attribute = gl.getActiveAttrib(handle, i);
      info.attributes[attribute.name] = gl.getAttribLocation(handle, attribute.name);
    }
    var uniformCount = gl.getProgramParameter(handle, gl.ACTIVE_UNIFORMS) || 0;
    for (i = 0; i < uniformCount; i++) {
      var uniform = gl.getActiveUniform(handle, i);
      var uniformName = uniform.name.replace(/\[0\]$/, '');
      info.uniforms[uniformName] = gl.getUniformLocation(handle, uniformName);
    }
    return info;
  }

  function upload(data) {
    var buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
    return { buffer: buffer, count: data.length / 9 };
  }

  function createResources() {
    gl.getExtension('OES_standard_derivatives'); // defines GL_OES_standard_derivatives in shaders
    programs = {
      object: program(MESH_VERTEX, OBJECT_FRAGMENT),
      ground: program(MESH_VERTEX, GROUND_FRAGMENT),
      shadow: program(SHADOW_VERTEX, SHADOW_FRAGMENT),
      sky: program(SKY_VERTEX, SKY_FRAGMENT),
    };
    meshes = {
      sphere: upload(sphereMesh(1.25)),
      torus: upload(torusMesh(1.1, 0.45)),
      cube: upload(roundedCubeMesh(0.95, 0.18)),
      knot: upload(knotMesh(0.42, 0.3)),
      smallSphere: upload(sphereMesh(0.7)),
      smallCube: upload(roundedCubeMesh(0.55, 0.1)),
      ground: upload(groundMesh(400)),
    };
    skyBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, skyBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 3, -1, -1, 3]), gl.STATIC_DRAW);
  }

  function initWebGL() {
    var options = { antialias: true, stencil: true, alpha: false, preserveDrawingBuffer: false };
    gl = canvas.getContext('webgl', options) || canvas.getContext('experimental-webgl', options);
    if (!gl) return false;
    createResources();
    canvas.addEventListener(
      'webglcontextlost',
      window.SplitbrainBridge.guard(function (event) {
        event.preventDefault();
        programs = null;
      }),
    );
    canvas.addEventListener(
      'webglcontextrestored',
      window.SplitbrainBridge.guard(function () {
        createResources();
      }),
    );
    return true;
  }

  function bindMesh(info, mesh) {
    gl.bindBuffer(gl.ARRAY_BUFFER, mesh.buffer);
    var stride = 9 * 4;
    var layout = { a_position: 0, a_normal: 3, a_bary: 6 };
    Object.keys(layout).forEach(function (name) {
      var location = info.attributes[name];
      if (location === undefined || location < 0) return;
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 3, gl.FLOAT, false, stride, layout[name] * 4);
    });
  }

  function unbindAttributes(info) {
    Object.keys(info.attributes).forEach(function (name) {
      gl.disableVertexAttribArray(info.attributes[name]);
    });
  }

  function setUniform(info, name, value) {
    var location = info.uniforms[name];
    if (!location) return;
    if (typeof value === 'number') gl.uniform1f(location, value);
    else if (value.length === 2) gl.uniform2fv(location, value);
    else if (value.length === 3) gl.uniform3fv(location, value);
    else if (value.length === 4) gl.uniform4fv(location, value);
    else if (value.length === 16) gl.uniformMatrix4fv(location, false, value);
    else gl.uniform4fv(location, value); // arrays of vec4
  }

  // ---- scene ------------------------------------------------------------------------------

  function lightDirection() {
    return normalize(state.light_direction) || [0, 1, 0];
  }

  function sceneObjects() {
    var spin = rotationY(angle);
    var main;
    switch (state.shape) {
      case 'sphere':
        main = multiply(spin, rotationX(0.35));
        break;
      case 'cube':
        main = multiply(spin, multiply(rotationX(0.62), rotationZ(0.78)));
        break;
      case 'torus':
        main = multiply(spin, rotationX(-0.32));
        break;
      default:
        main = multiply(spin, rotationX(-0.2));
    }
    var lift = translation(MAIN_CENTER[0], MAIN_CENTER[1], MAIN_CENTER[2]);
    var color = hexToLinear(state.object_color);
    return [
      { mesh: meshes[state.shape], model: multiply(lift, main), color: color, roughness: state.roughness },
      { mesh: meshes.smallSphere, model: translation(-3.2, 0.71, 1.6), color: [0.82, 0.8, 0.76], roughness: 0.55 },
      {
        mesh: meshes.smallCube,
        model: multiply(translation(3.0, 0.55, -1.5), rotationY(0.45)),
        color: [0.16, 0.2, 0.3],
        roughness: 0.2,
      },
    ];
  }

  function resize() {
    var ratio = Math.min(window.devicePixelRatio || 1, 2);
    var width = Math.max(1, Math.floor(window.innerWidth * ratio));
    var height = Math.max(1, Math.floor(window.innerHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    view.width = width;
    view.height = height;
  }

  function draw() {
    if (!gl || !programs || gl.isContextLost()) return;
    resize();
    gl.viewport(0, 0, view.width, view.height);
    gl.clearColor(SKY_HORIZON[0], SKY_HORIZON[1], SKY_HORIZON[2], 1);
    gl.clearStencil(0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);

    var aspect = view.width / view.height;
    var projection = perspective((state.field_of_view * Math.PI) / 180, aspect, 0.05, 400);
    var viewMatrix = lookAt(state.position, state.look_at);
    var viewProjection = multiply(projection, viewMatrix);
    var light = lightDirection();
    var lightColor = hexToLinear(state.light_color);
    var radiance = lightColor.map(function (c) {
      return c * state.light_intensity;
    });
    var objects = sceneObjects();
    var sunStrength = Math.min(1.5, state.light_intensity / 2) * (light[1] > -0.05 ? 1 : 0);
    var common = {
      u_view_projection: viewProjection,
      u_light_dir: light,
      u_light_color: radiance,
      u_ambient: state.ambient,
      u_camera: state.position,
      u_sky_zenith: SKY_ZENITH,
      u_sky_horizon: SKY_HORIZON,
      u_fog: [FOG_NEAR, FOG_FAR],
      u_sun_color: lightColor,
      u_sun_strength: sunStrength,
    };

    // sky
    var sky = programs.sky;
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    gl.useProgram(sky.handle);
    Object.keys(common).forEach(function (name) {
      setUniform(sky, name, common[name]);
    });
    setUniform(sky, 'u_inverse_view_projection', invert(viewProjection));
    gl.bindBuffer(gl.ARRAY_BUFFER, skyBuffer);
    var corner = sky.attributes.a_corner;
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.disableVertexAttribArray(corner);

    // ground
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(true);
    var ground = programs.ground;
    gl.useProgram(ground.handle);
    Object.keys(common).forEach(function (name) {
      setUniform(ground, name, common[name]);
    });
    setUniform(ground, 'u_model', identity());
    setUniform(ground, 'u_albedo', GROUND_ALBEDO);
    var blobStrength = state.wireframe ? 0 : 1;
    gl.uniform4fv(
      ground.uniforms.u_blobs,
      new Float32Array([
        MAIN_CENTER[0],
        MAIN_CENTER[2],
        1.5,
        0.32 * blobStrength,
        -3.2,
        1.6,
        0.75,
        0.45 * blobStrength,
        3.0,
        -1.5,
        0.8,
        0.45 * blobStrength,
      ]),
    );
    bindMesh(ground, meshes.ground);
    gl.drawArrays(gl.TRIANGLES, 0, meshes.ground.count);
    unbindAttributes(ground);

    // shadows: projected onto y = 0 along the light, each ground pixel darkened once
    var direct = state.light_intensity * Math.max(light[1], 0);
    if (!state.wireframe && light[1] > 0.04 && direct > 0.001) {
      var shadow = programs.shadow;
      var strength = ((0.62 * direct) / (direct + state.ambient * 0.55 + 0.02)) * Math.min(1, light[1] * 4);
      gl.useProgram(shadow.handle);
      setUniform(shadow, 'u_view_projection', viewProjection);
      setUniform(shadow, 'u_fog', [FOG_NEAR, FOG_FAR]);
      gl.enable(gl.STENCIL_TEST);
      gl.stencilFunc(gl.EQUAL, 0, 0xff);
      gl.stencilOp(gl.KEEP, gl.KEEP, gl.INCR);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.enable(gl.POLYGON_OFFSET_FILL);
      gl.polygonOffset(-2, -2);
      // a few slightly different sun directions give a soft penumbra
      var passes = SHADOW_JITTER.length;
      setUniform(shadow, 'u_strength', 1 - Math.pow(1 - Math.min(0.95, strength), 1 / passes));
      SHADOW_JITTER.forEach(function (offset) {
        var jittered = normalize([light[0] + offset[0], light[1], light[2] + offset[1]]);
        if (!jittered || jittered[1] <= 0.02) jittered = light;
        setUniform(shadow, 'u_light_dir', jittered);
        gl.clear(gl.STENCIL_BUFFER_BIT);
        objects.forEach(function (object) {
          setUniform(shadow, 'u_model', object.model);
          bindMesh(shadow, object.mesh);
          gl.drawArrays(gl.TRIANGLES, 0, object.mesh.count);
        });
      });
      unbindAttributes(shadow);
      gl.disable(gl.POLYGON_OFFSET_FILL);
      gl.disable(gl.STENCIL_TEST);
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }

    // objects
    var shaded = programs.object;
    gl.useProgram(shaded.handle);
    Object.keys(common).forEach(function (name) {
      setUniform(shaded, name, common[name]);
    });
    setUniform(shaded, 'u_wireframe', state.wireframe ? 1 : 0);
    if (state.wireframe) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      gl.depthMask(false);
      gl.disable(gl.CULL_FACE);
    } else {
      gl.enable(gl.CULL_FACE);
      gl.cullFace(gl.BACK);
    }
    objects.forEach(function (object) {
      setUniform(shaded, 'u_model', object.model);
      setUniform(shaded, 'u_color', object.color);
      setUniform(shaded, 'u_roughness', object.roughness);
      bindMesh(shaded, object.mesh);
      gl.drawArrays(gl.TRIANGLES, 0, object.mesh.count);
    });
    unbindAttributes(shaded);
    gl.disable(gl.CULL_FACE);
    gl.disable(gl.BLEND);
    gl.depthMask(true);
  }

  function frame(time) {
    var dt = lastTime ? Math.min(0.1, (time - lastTime) / 1000) : 0;
    lastTime = time;
    angle = (angle + ((state.spin_speed * Math.PI) / 180) * dt) % (Math.PI * 2);
    draw();
    window.requestAnimationFrame(frame);
  }

  // ---- HUD ----------------------------------------------------------------------------------

  function short(number) {
    return String(Math.round(number * 10) / 10);
  }

  function updateHud() {
    hud.shape.textContent = state.shape + (state.wireframe ? ' (wireframe)' : '');
    hud.fov.textContent = short(state.field_of_view) + '° FOV';
    hud.spin.textContent = short(state.spin_speed) + '°/s';
    hud.camera.textContent =
      'camera ' + state.position.map(short).join(', ') + ' → ' + state.look_at.map(short).join(', ');
    if (hud.badge.className.indexOf('error') < 0) {
      hud.badge.textContent = isReady ? 'ready' : 'starting…';
      hud.badge.className = 'badge ' + (isReady ? 'ready' : 'starting');
    }
  }

  // ---- start-up -----------------------------------------------------------------------------

  function nextFrame() {
    return new Promise(function (resolve) {
      var done = false;
      function finish() {
        if (!done) {
          done = true;
          resolve();
        }
      }
      window.requestAnimationFrame(finish);
      window.setTimeout(finish, 100);
    });
  }

  async function init() {
    updateHud();
    resize();
    var ok = false;
    try {
      ok = initWebGL();
    } catch (error) {
      bridge.reportError('3D scene: ' + (error && error.message ? error.message : error));
    }
    if (!ok) {
      notice.textContent =
        'WebGL is not available in this browser, so the 3D scene cannot be drawn. Parameters still apply.';
      notice.hidden = false;
      hud.badge.textContent = 'no WebGL';
      hud.badge.className = 'badge error';
    }
    window.addEventListener('resize', window.SplitbrainBridge.guard(resize));
    draw();
    await nextFrame();
    window.requestAnimationFrame(frame);
    isReady = true;
    updateHud();
    bridge.ready();
  }

  init().catch(function (error) {
    bridge.reportError('3D scene failed to start: ' + (error && error.message ? error.message : error));
  });
})();
