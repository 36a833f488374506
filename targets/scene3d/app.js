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

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
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

  function sub(a, b) {
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  }
  function dot(a, b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  }
  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }
  function normalize(v) {
    var length = Math.sqrt(dot(v, v));
    return length > 1e-9 ? [v[0] / length, v[1] / length, v[2] / length] : null;
  }

  function multiply(a, b) {
    var out = new Float32Array(16);
    for (var col = 0; col < 4; col++) {
      for (var row = 0; row < 4; row++) {
        var sum = 0;
        for (var k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
        out[col * 4 + row] = sum;
      }
    }
    return out;
  }

  function identity() {
    return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  }

  function translation(x, y, z) {
    var m = identity();
    m[12] = x;
    m[13] = y;
    m[14] = z;
    return m;
  }

  function rotationY(a) {
    var c = Math.cos(a),
      s = Math.sin(a);
    return new Float32Array([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]);
  }

  function rotationX(a) {
    var c = Math.cos(a),
      s = Math.sin(a);
    return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]);
  }

  function rotationZ(a) {
    var c = Math.cos(a),
      s = Math.sin(a);
    return new Float32Array([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  }

  function perspective(fovY, aspect, near, far) {
    var f = 1 / Math.tan(fovY / 2);
    var m = new Float32Array(16);
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (far + near) / (near - far);
    m[11] = -1;
    m[14] = (2 * far * near) / (near - far);
    return m;
  }

  function lookAt(eye, target) {
    var forward = normalize(sub(target, eye)) || [0, 0, -1];
    var right = normalize(cross(forward, [0, 1, 0])) || normalize(cross(forward, [0, 0, -1]));
    var up = cross(right, forward);
    return new Float32Array([
      right[0],
      up[0],
      -forward[0],
      0,
      right[1],
      up[1],
      -forward[1],
      0,
      right[2],
      up[2],
      -forward[2],
      0,
      -dot(right, eye),
      -dot(up, eye),
      dot(forward, eye),
      1,
    ]);
  }

  function invert(m) {
    var inv = new Float32Array(16);
    inv[0] =
      m[5] * m[10] * m[15] -
      m[5] * m[11] * m[14] -
      m[9] * m[6] * m[15] +
      m[9] * m[7] * m[14] +
      m[13] * m[6] * m[11] -
      m[13] * m[7] * m[10];
    inv[4] =
      -m[4] * m[10] * m[15] +
      m[4] * m[11] * m[14] +
      m[8] * m[6] * m[15] -
      m[8] * m[7] * m[14] -
      m[12] * m[6] * m[11] +
      m[12] * m[7] * m[10];
    inv[8] =
      m[4] * m[9] * m[15] -
      m[4] * m[11] * m[13] -
      m[8] * m[5] * m[15] +
      m[8] * m[7] * m[13] +
      m[12] * m[5] * m[11] -
      m[12] * m[7] * m[9];
    inv[12] =
      -m[4] * m[9] * m[14] +
      m[4] * m[10] * m[13] +
      m[8] * m[5] * m[14] -
      m[8] * m[6] * m[13] -
      m[12] * m[5] * m[10] +
      m[12] * m[6] * m[9];
    inv[1] =
      -m[1] * m[10] * m[15] +
      m[1] * m[11] * m[14] +
      m[9] * m[2] * m[15] -
      m[9] * m[3] * m[14] -
      m[13] * m[2] * m[11] +
      m[13] * m[3] * m[10];
    inv[5] =
      m[0] * m[10] * m[15] -
      m[0] * m[11] * m[14] -
      m[8] * m[2] * m[15] +
      m[8] * m[3] * m[14] +
      m[12] * m[2] * m[11] -
      m[12] * m[3] * m[10];
    inv[9] =
      -m[0] * m[9] * m[15] +
      m[0] * m[11] * m[13] +
      m[8] * m[1] * m[15] -
      m[8] * m[3] * m[13] -
      m[12] * m[1] * m[11] +
      m[12] * m[3] * m[9];
    inv[13] =
      m[0] * m[9] * m[14] -
      m[0] * m[10] * m[13] -
      m[8] * m[1] * m[14] +
      m[8] * m[2] * m[13] +
      m[12] * m[1] * m[10] -
      m[12] * m[2] * m[9];
    inv[2] =
      m[1] * m[6] * m[15] -
      m[1] * m[7] * m[14] -
      m[5] * m[2] * m[15] +
      m[5] * m[3] * m[14] +
      m[13] * m[2] * m[7] -
      m[13] * m[3] * m[6];
    inv[6] =
      -m[0] * m[6] * m[15] +
      m[0] * m[7] * m[14] +
      m[4] * m[2] * m[15] -
      m[4] * m[3] * m[14] -
      m[12] * m[2] * m[7] +
      m[12] * m[3] * m[6];
    inv[10] =
      m[0] * m[5] * m[15] -
      m[0] * m[7] * m[13] -
      m[4] * m[1] * m[15] +
      m[4] * m[3] * m[13] +
      m[12] * m[1] * m[7] -
      m[12] * m[3] * m[5];
    inv[14] =
      -m[0] * m[5] * m[14] +
      m[0] * m[6] * m[13] +
      m[4] * m[1] * m[14] -
      m[4] * m[2] * m[13] -
      m[12] * m[1] * m[6] +
      m[12] * m[2] * m[5];
    inv[3] =
      -m[1] * m[6] * m[11] +
      m[1] * m[7] * m[10] +
      m[5] * m[2] * m[11] -
      m[5] * m[3] * m[10] -
      m[9] * m[2] * m[7] +
      m[9] * m[3] * m[6];
    inv[7] =
      m[0] * m[6] * m[11] -
      m[0] * m[7] * m[10] -
      m[4] * m[2] * m[11] +
      m[4] * m[3] * m[10] +
      m[8] * m[2] * m[7] -
      m[8] * m[3] * m[6];
    inv[11] =
      -m[0] * m[5] * m[11] +
      m[0] * m[7] * m[9] +
      m[4] * m[1] * m[11] -
      m[4] * m[3] * m[9] -
      m[8] * m[1] * m[7] +
      m[8] * m[3] * m[5];
    inv[15] =
      m[0] * m[5] * m[10] -
      m[0] * m[6] * m[9] -
      m[4] * m[1] * m[10] +
      m[4] * m[2] * m[9] +
      m[8] * m[1] * m[6] -
      m[8] * m[2] * m[5];
    var det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (Math.abs(det) < 1e-12) return identity();
    for (var i = 0; i < 16; i++) inv[i] /= det;
    return inv;
  }

  function hexToLinear(hex) {
    var n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(function (c) {
      var v = c / 255;
      return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
  }

  // ---- geometry: de-indexed triangles, 9 floats a vertex (position, normal, barycentric) --------

  // A (uSegments × vSegments) grid of quads from surface(u, v) → {p, n}. Each quad's diagonal is
  // hidden in wireframe mode by lifting the barycentric coordinate that would mark it as an edge.
  function gridMesh(uSegments, vSegments, surface, out) {
    var rows = [];
    for (var j = 0; j <= vSegments; j++) {
      var row = [];
      for (var i = 0; i <= uSegments; i++) row.push(surface(i / uSegments, j / vSegments));
      rows.push(row);
    }
    for (j = 0; j < vSegments; j++) {
      for (i = 0; i < uSegments; i++) {
        var a = rows[j][i],
          b = rows[j][i + 1],
          c = rows[j + 1][i + 1],
          d = rows[j + 1][i];
        // triangle a b c: the diagonal a–c is opposite b, so b's coordinate is lifted on a and c
        pushVertex(out, a, [1, 1, 0]);
        pushVertex(out, b, [0, 1, 0]);
        pushVertex(out, c, [0, 1, 1]);
        // triangle a c d: the diagonal a–c is opposite d
        pushVertex(out, a, [1, 0, 1]);
        pushVertex(out, c, [0, 1, 1]);
        pushVertex(out, d, [0, 0, 1]);
      }
    }
    return out;
  }

  function pushVertex(out, vertex, bary) {
    out.push(vertex.p[0], vertex.p[1], vertex.p[2], vertex.n[0], vertex.n[1], vertex.n[2], bary[0], bary[1], bary[2]);
  }

  function sphereMesh(radius) {
    return gridMesh(
      64,
      32,
      function (u, v) {
        var theta = u * Math.PI * 2,
          phi = v * Math.PI;
        var n = [Math.sin(phi) * Math.cos(theta), Math.cos(phi), -Math.sin(phi) * Math.sin(theta)];
        return { p: [n[0] * radius, n[1] * radius, n[2] * radius], n: n };
      },
      [],
    );
  }

  function torusMesh(major, minor) {
    return gridMesh(
      72,
      28,
      function (u, v) {
        var theta = u * Math.PI * 2,
          phi = v * Math.PI * 2;
        var n = [Math.cos(phi) * Math.cos(theta), Math.cos(phi) * Math.sin(theta), Math.sin(phi)];
        var ring = major + minor * Math.cos(phi);
        return { p: [ring * Math.cos(theta), ring * Math.sin(theta), minor * Math.sin(phi)], n: n };
      },
      [],
    );
  }

  // Trefoil: the (2,3) torus knot, tube frames as in the classic TorusKnot construction.
  function knotMesh(scale, tube) {
    function curve(t) {
      var r = 2 + Math.cos(3 * t);
      return [r * Math.cos(2 * t) * scale, r * Math.sin(2 * t) * scale, -Math.sin(3 * t) * scale];
    }
    return gridMesh(
      256,
      20,
      function (u, v) {
        var t = u * Math.PI * 2;
        var p1 = curve(t),
          p2 = curve(t + 0.01);
        var tangent = sub(p2, p1);
        var normal = [p1[0] + p2[0], p1[1] + p2[1], p1[2] + p2[2]];
        var binormal = normalize(cross(tangent, normal));
        normal = normalize(cross(binormal, tangent));
        var phi = v * Math.PI * 2;
        var cx = -tube * Math.cos(phi),
          cy = tube * Math.sin(phi);
        var n = [
          cx * normal[0] + cy * binormal[0],
          cx * normal[1] + cy * binormal[1],
          cx * normal[2] + cy * binormal[2],
        ];
        var nn = normalize(n);
        return { p: [p1[0] + n[0], p1[1] + n[1], p1[2] + n[2]], n: nn };
      },
      [],
    );
  }

  // A cube of half-size `half` with edges rounded to `radius`: a subdivided box pushed onto the
  // rounded shape (inner box + sphere of the edge radius).
  function roundedCubeMesh(half, radius) {
    var inner = half - radius;
    var stops = [];
    var bevel = 6;
    var flat = 4;
    for (var k = 0; k < bevel; k++) stops.push(-half + (radius * k) / bevel);
    for (k = 0; k < flat; k++) stops.push(-inner + (2 * inner * k) / flat);
    for (k = 0; k <= bevel; k++) stops.push(inner + (radius * k) / bevel);
    var segments = stops.length - 1;
    function stop(t) {
      return stops[Math.round(t * segments)];
    }
    var faces = [
      [
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
      ],
      [
        [0, 0, -1],
        [-1, 0, 0],
        [0, 1, 0],
      ],
      [
        [1, 0, 0],
        [0, 0, -1],
        [0, 1, 0],
      ],
      [
        [-1, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
      ],
      [
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, -1],
      ],
      [
        [0, -1, 0],
        [1, 0, 0],
        [0, 0, 1],
      ],
    ];
    var out = [];
    faces.forEach(function (face) {
      var n = face[0],
        du = face[1],
        dv = face[2];
      gridMesh(
        segments,
        segments,
        function (u, v) {
          var a = stop(u),
            b = stop(v);
          var p = [
            n[0] * half + du[0] * a + dv[0] * b,
            n[1] * half + du[1] * a + dv[1] * b,
            n[2] * half + du[2] * a + dv[2] * b,
          ];
          var core = [clamp(p[0], -inner, inner), clamp(p[1], -inner, inner), clamp(p[2], -inner, inner)];
          var normal = normalize(sub(p, core)) || n;
          return {
            p: [core[0] + normal[0] * radius, core[1] + normal[1] * radius, core[2] + normal[2] * radius],
            n: normal,
          };
        },
        out,
      );
    });
    return out;
  }

  function groundMesh(size) {
    return gridMesh(
      1,
      1,
      function (u, v) {
        return { p: [(u - 0.5) * size, 0, (v - 0.5) * size], n: [0, 1, 0] };
      },
      [],
    );
  }

  // ---- shaders ----------------------------------------------------------------------------

  // Sky radiance for a view direction: horizon → zenith gradient plus the sun disc and its glow.
  // Shared by the sky and by the fog, so distant ground melts into the sky behind it.
  var SKY_FUNCTION = [
    'vec3 skyColor(vec3 dir) {',
    '  float up = max(dir.y, 0.0);',
    '  vec3 sky = mix(u_sky_horizon, u_sky_zenith, 1.0 - exp(-up * 3.5));',
    '  float sun = max(dot(dir, u_light_dir), 0.0);',
    '  return sky + u_sun_color * u_sun_strength * (pow(sun, 1200.0) * 6.0 + pow(sun, 24.0) * 0.22 + pow(sun, 4.0) * 0.05);',
    '}',
  ].join('\n');

  var COMMON_FRAGMENT = [
    '#ifdef GL_OES_standard_derivatives',
    '#extension GL_OES_standard_derivatives : enable',
    '#endif',
    'precision highp float;',
    'uniform vec3 u_light_dir;',
    'uniform vec3 u_light_color;',
    'uniform float u_ambient;',
    'uniform vec3 u_camera;',
    'uniform vec3 u_sky_zenith;',
    'uniform vec3 u_sky_horizon;',
    'uniform vec2 u_fog;',
    'uniform vec3 u_sun_color;',
    'uniform float u_sun_strength;',
    SKY_FUNCTION,
    'vec3 aces(vec3 x) {',
    '  return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);',
    '}',
    'vec3 toDisplay(vec3 linear) { return pow(aces(linear), vec3(1.0 / 2.2)); }',
    'vec3 hemisphere(vec3 n) {',
    '  return mix(vec3(0.30, 0.28, 0.26), u_sky_horizon * 0.6 + u_sky_zenith * 1.4, n.y * 0.5 + 0.5);',
    '}',
    'float fogAmount(vec3 world) {',
    '  return smoothstep(u_fog.x, u_fog.y, length(world.xz));',
    '}',
    'vec3 fogDisplay(vec3 world) { return pow(clamp(skyColor(normalize(world - u_camera)), 0.0, 1.0), vec3(1.0 / 2.2)); }',
    'float edgeFactor(vec3 bary, float width) {',
    '#ifdef GL_OES_standard_derivatives',
    '  vec3 d = max(fwidth(bary) * width, vec3(1e-5));',
    '  vec3 a = smoothstep(vec3(0.0), vec3(1.0), bary / d);',
    '  return 1.0 - min(min(a.x, a.y), a.z);',
    '#else',
    '  return 1.0 - smoothstep(0.0, 0.04, min(min(bary.x, bary.y), bary.z));',
    '#endif',
    '}',
  ].join('\n');

  var MESH_VERTEX = [
    'attribute vec3 a_position;',
    'attribute vec3 a_normal;',
    'attribute vec3 a_bary;',
    'uniform mat4 u_model;',
    'uniform mat4 u_view_projection;',
    'varying vec3 v_world;',
    'varying vec3 v_normal;',
    'varying vec3 v_bary;',
    'void main() {',
    '  vec4 world = u_model * vec4(a_position, 1.0);',
    '  v_world = world.xyz;',
    '  v_normal = mat3(u_model) * a_normal;',
    '  v_bary = a_bary;',
    '  gl_Position = u_view_projection * world;',
    '}',
  ].join('\n');

  var OBJECT_FRAGMENT =
    COMMON_FRAGMENT +
    '\n' +
    [
      'uniform vec3 u_color;',
      'uniform float u_roughness;',
      'uniform float u_wireframe;',
      'varying vec3 v_world;',
      'varying vec3 v_normal;',
      'varying vec3 v_bary;',
      'void main() {',
      '  vec3 n = normalize(v_normal);',
      '  if (!gl_FrontFacing) n = -n;',
      '  vec3 v = normalize(u_camera - v_world);',
      '  vec3 h = normalize(u_light_dir + v);',
      '  float ndl = max(dot(n, u_light_dir), 0.0);',
      '  float rough = clamp(u_roughness, 0.02, 1.0);',
      '  float shininess = 2.0 / (rough * rough * rough * rough + 0.0004) - 2.0;',
      '  shininess = clamp(shininess, 1.0, 4000.0);',
      '  float norm = (shininess + 8.0) / 25.13;',
      '  float fresnel = 0.04 + 0.96 * pow(1.0 - max(dot(h, v), 0.0), 5.0);',
      '  float spec = norm * pow(max(dot(n, h), 0.0), shininess) * fresnel * ndl;',
      '  float rim = pow(1.0 - max(dot(n, v), 0.0), 4.0) * (1.0 - rough) * 0.35;',
      '  vec3 ambient = u_ambient * hemisphere(n) * u_color;',
      '  vec3 direct = u_light_color * (u_color * ndl + vec3(spec));',
      '  vec3 color = ambient + direct + rim * u_sky_horizon * u_ambient;',
      '  vec3 display = mix(toDisplay(color), fogDisplay(v_world), fogAmount(v_world));',
      '  if (u_wireframe > 0.5) {',
      '    float edge = edgeFactor(v_bary, 1.4);',
      '    if (edge < 0.02) discard;',
      '    float facing = gl_FrontFacing ? 1.0 : 0.35;',
      '    vec3 lineColor = toDisplay(u_color * (0.55 + 0.9 * ndl) + u_color * 0.25);',
      '    gl_FragColor = vec4(lineColor, edge * facing);',
      '    return;',
      '  }',
      '  gl_FragColor = vec4(display, 1.0);',
      '}',
    ].join('\n');

  var GROUND_FRAGMENT =
    COMMON_FRAGMENT +
    '\n' +
    [
      'uniform vec3 u_albedo;',
      'uniform vec4 u_blobs[3];',
      'varying vec3 v_world;',
      'varying vec3 v_normal;',
      'varying vec3 v_bary;',
      'float gridLine(vec2 p, float spacing, float width) {',
      '#ifdef GL_OES_standard_derivatives',
      '  vec2 coord = p / spacing;',
      '  vec2 d = fwidth(coord);',
      '  vec2 g = abs(fract(coord - 0.5) - 0.5) / (d * width);',
      '  float fade = 1.0 - smoothstep(0.15, 0.6, max(d.x, d.y));',
      '  return (1.0 - min(min(g.x, g.y), 1.0)) * fade;',
      '#else',
      '  vec2 g = abs(fract(p / spacing - 0.5) - 0.5);',
      '  return 1.0 - smoothstep(0.0, 0.02, min(g.x, g.y));',
      '#endif',
      '}',
      'void main() {',
      '  vec3 n = vec3(0.0, 1.0, 0.0);',
      '  float ndl = max(u_light_dir.y, 0.0);',
      '  float occlusion = 1.0;',
      '  for (int i = 0; i < 3; i++) {',
      '    vec2 d = v_world.xz - u_blobs[i].xy;',
      '    occlusion *= 1.0 - u_blobs[i].w * exp(-dot(d, d) / (u_blobs[i].z * u_blobs[i].z));',
      '  }',
      '  float minor = gridLine(v_world.xz, 1.0, 1.0);',
      '  float major = gridLine(v_world.xz, 5.0, 1.6);',
      '  vec3 albedo = u_albedo * (1.0 - 0.16 * minor - 0.22 * major);',
      '  vec3 color = albedo * (u_ambient * hemisphere(n) * occlusion + u_light_color * ndl * mix(1.0, occlusion, 0.5));',
      '  gl_FragColor = vec4(mix(toDisplay(color), fogDisplay(v_world), fogAmount(v_world)), 1.0);',
      '}',
    ].join('\n');

  var SHADOW_VERTEX = [
    'attribute vec3 a_position;',
    'uniform mat4 u_model;',
    'uniform mat4 u_view_projection;',
    'uniform vec3 u_light_dir;',
    'varying vec3 v_world;',
    'void main() {',
    '  vec4 world = u_model * vec4(a_position, 1.0);',
    '  world.xyz -= u_light_dir * (world.y / u_light_dir.y);',
    '  world.y = 0.0;',
    '  v_world = world.xyz;',
    '  gl_Position = u_view_projection * world;',
    '}',
  ].join('\n');

  var SHADOW_FRAGMENT = [
    'precision highp float;',
    'uniform float u_strength;',
    'uniform vec2 u_fog;',
    'varying vec3 v_world;',
    'void main() {',
    '  float fog = smoothstep(u_fog.x, u_fog.y, length(v_world.xz));',
    '  gl_FragColor = vec4(0.0, 0.0, 0.0, u_strength * (1.0 - fog));',
    '}',
  ].join('\n');

  var SKY_VERTEX = [
    'attribute vec2 a_corner;',
    'varying vec2 v_ndc;',
    'void main() {',
    '  v_ndc = a_corner;',
    '  gl_Position = vec4(a_corner, 0.9999, 1.0);',
    '}',
  ].join('\n');

  var SKY_FRAGMENT = [
    'precision highp float;',
    'uniform mat4 u_inverse_view_projection;',
    'uniform vec3 u_camera;',
    'uniform vec3 u_light_dir;',
    'uniform vec3 u_sun_color;',
    'uniform float u_sun_strength;',
    'uniform vec3 u_sky_zenith;',
    'uniform vec3 u_sky_horizon;',
    'varying vec2 v_ndc;',
    SKY_FUNCTION,
    'void main() {',
    '  vec4 far = u_inverse_view_projection * vec4(v_ndc, 1.0, 1.0);',
    '  vec3 dir = normalize(far.xyz / far.w - u_camera);',
    '  gl_FragColor = vec4(pow(clamp(skyColor(dir), 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);',
    '}',
  ].join('\n');

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
