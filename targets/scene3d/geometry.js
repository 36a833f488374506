/* 3D scene target: meshes as de-indexed triangles, 9 floats a vertex (position, normal, barycentric). */
(function (modules) {
  'use strict';

  var clamp = modules.vectors.clamp;
  var sub = modules.vectors.sub;
  var cross = modules.vectors.cross;
  var normalize = modules.vectors.normalize;

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

  modules.geometry = {
    sphereMesh: sphereMesh,
    torusMesh: torusMesh,
    knotMesh: knotMesh,
    roundedCubeMesh: roundedCubeMesh,
    groundMesh: groundMesh,
  };
})((window.Scene3dModules = window.Scene3dModules || {}));
