/* 3D scene target: the GLSL sources of the object, ground, shadow and sky programs. */
(function (modules) {
  'use strict';

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

  modules.shaders = {
    MESH_VERTEX: MESH_VERTEX,
    OBJECT_FRAGMENT: OBJECT_FRAGMENT,
    GROUND_FRAGMENT: GROUND_FRAGMENT,
    SHADOW_VERTEX: SHADOW_VERTEX,
    SHADOW_FRAGMENT: SHADOW_FRAGMENT,
    SKY_VERTEX: SKY_VERTEX,
    SKY_FRAGMENT: SKY_FRAGMENT,
  };
})((window.Scene3dModules = window.Scene3dModules || {}));
