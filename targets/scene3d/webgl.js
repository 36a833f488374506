/* 3D scene target: WebGL helpers (compiling and linking shader programs, vertex buffers, attributes and uniforms). */
(function (modules) {
  'use strict';

  function compile(gl, type, source) {
    var shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
      throw new Error('Shader failed to compile: ' + gl.getShaderInfoLog(shader));
    }
    return shader;
  }

  function program(gl, vertexSource, fragmentSource) {
    var handle = gl.createProgram();
    gl.attachShader(handle, compile(gl, gl.VERTEX_SHADER, vertexSource));
    gl.attachShader(handle, compile(gl, gl.FRAGMENT_SHADER, fragmentSource));
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

  function upload(gl, data) {
    var buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
    return { buffer: buffer, count: data.length / 9 };
  }

  function bindMesh(gl, info, mesh) {
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

  function unbindAttributes(gl, info) {
    Object.keys(info.attributes).forEach(function (name) {
      gl.disableVertexAttribArray(info.attributes[name]);
    });
  }

  function setUniform(gl, info, name, value) {
    var location = info.uniforms[name];
    if (!location) return;
    if (typeof value === 'number') gl.uniform1f(location, value);
    else if (value.length === 2) gl.uniform2fv(location, value);
    else if (value.length === 3) gl.uniform3fv(location, value);
    else if (value.length === 4) gl.uniform4fv(location, value);
    else if (value.length === 16) gl.uniformMatrix4fv(location, false, value);
    else gl.uniform4fv(location, value); // arrays of vec4
  }

  modules.webgl = {
    program: program,
    upload: upload,
    bindMesh: bindMesh,
    unbindAttributes: unbindAttributes,
    setUniform: setUniform,
  };
})((window.Scene3dModules = window.Scene3dModules || {}));
