/* 3D scene target: the GL resources and the frame (sky, ground, soft planar shadows, shaded or wireframe objects). */
(function (modules) {
  'use strict';

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
  var program = modules.webgl.program;
  var upload = modules.webgl.upload;
  var bindMesh = modules.webgl.bindMesh;
  var unbindAttributes = modules.webgl.unbindAttributes;
  var setUniform = modules.webgl.setUniform;

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

  // The app owns the parameters and the spin angle and passes them to every draw.
  function create(canvas) {
    var gl = null;
    var programs = null;
    var meshes = null;
    var skyBuffer = null;
    var view = { width: 1, height: 1 };

    function createResources() {
      gl.getExtension('OES_standard_derivatives'); // defines GL_OES_standard_derivatives in shaders
      programs = {
        object: program(gl, MESH_VERTEX, OBJECT_FRAGMENT),
        ground: program(gl, MESH_VERTEX, GROUND_FRAGMENT),
        shadow: program(gl, SHADOW_VERTEX, SHADOW_FRAGMENT),
        sky: program(gl, SKY_VERTEX, SKY_FRAGMENT),
      };
      meshes = {
        sphere: upload(gl, sphereMesh(1.25)),
        torus: upload(gl, torusMesh(1.1, 0.45)),
        cube: upload(gl, roundedCubeMesh(0.95, 0.18)),
        knot: upload(gl, knotMesh(0.42, 0.3)),
        smallSphere: upload(gl, sphereMesh(0.7)),
        smallCube: upload(gl, roundedCubeMesh(0.55, 0.1)),
        ground: upload(gl, groundMesh(400)),
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

    function lightDirection(state) {
      return normalize(state.light_direction) || [0, 1, 0];
    }

    function sceneObjects(state, angle) {
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

    function draw(state, angle) {
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
      var light = lightDirection(state);
      var lightColor = hexToLinear(state.light_color);
      var radiance = lightColor.map(function (c) {
        return c * state.light_intensity;
      });
      var objects = sceneObjects(state, angle);
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
        setUniform(gl, sky, name, common[name]);
      });
      setUniform(gl, sky, 'u_inverse_view_projection', invert(viewProjection));
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
        setUniform(gl, ground, name, common[name]);
      });
      setUniform(gl, ground, 'u_model', identity());
      setUniform(gl, ground, 'u_albedo', GROUND_ALBEDO);
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
      bindMesh(gl, ground, meshes.ground);
      gl.drawArrays(gl.TRIANGLES, 0, meshes.ground.count);
      unbindAttributes(gl, ground);

      // shadows: projected onto y = 0 along the light, each ground pixel darkened once
      var direct = state.light_intensity * Math.max(light[1], 0);
      if (!state.wireframe && light[1] > 0.04 && direct > 0.001) {
        var shadow = programs.shadow;
        var strength = ((0.62 * direct) / (direct + state.ambient * 0.55 + 0.02)) * Math.min(1, light[1] * 4);
        gl.useProgram(shadow.handle);
        setUniform(gl, shadow, 'u_view_projection', viewProjection);
        setUniform(gl, shadow, 'u_fog', [FOG_NEAR, FOG_FAR]);
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
        setUniform(gl, shadow, 'u_strength', 1 - Math.pow(1 - Math.min(0.95, strength), 1 / passes));
        SHADOW_JITTER.forEach(function (offset) {
          var jittered = normalize([light[0] + offset[0], light[1], light[2] + offset[1]]);
          if (!jittered || jittered[1] <= 0.02) jittered = light;
          setUniform(gl, shadow, 'u_light_dir', jittered);
          gl.clear(gl.STENCIL_BUFFER_BIT);
          objects.forEach(function (object) {
            setUniform(gl, shadow, 'u_model', object.model);
            bindMesh(gl, shadow, object.mesh);
            gl.drawArrays(gl.TRIANGLES, 0, object.mesh.count);
          });
        });
        unbindAttributes(gl, shadow);
        gl.disable(gl.POLYGON_OFFSET_FILL);
        gl.disable(gl.STENCIL_TEST);
        gl.disable(gl.BLEND);
        gl.depthMask(true);
      }

      // objects
      var shaded = programs.object;
      gl.useProgram(shaded.handle);
      Object.keys(common).forEach(function (name) {
        setUniform(gl, shaded, name, common[name]);
      });
      setUniform(gl, shaded, 'u_wireframe', state.wireframe ? 1 : 0);
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
        setUniform(gl, shaded, 'u_model', object.model);
        setUniform(gl, shaded, 'u_color', object.color);
        setUniform(gl, shaded, 'u_roughness', object.roughness);
        bindMesh(gl, shaded, object.mesh);
        gl.drawArrays(gl.TRIANGLES, 0, object.mesh.count);
      });
      unbindAttributes(gl, shaded);
      gl.disable(gl.CULL_FACE);
      gl.disable(gl.BLEND);
      gl.depthMask(true);
    }

    return { init: initWebGL, resize: resize, draw: draw };
  }

  modules.renderer = { create: create };
})((window.Scene3dModules = window.Scene3dModules || {}));
