/*
 * Splitbrain target parameters — the shared helper that reads a target's parameter specs from its
 * manifest and coerces the values the stage sends. Include it after the bridge and the manifest:
 *   <script src="../bridge.js"></script>
 *   <script src="manifest.js"></script>   (written by the build from manifest.json)
 *   <script src="../params.js"></script>
 *
 * Plain browser JavaScript, no modules, no network. Defines window.SplitbrainParams:
 *   var params = SplitbrainParams.fromManifest();   // window.SplitbrainManifest, or pass a manifest
 *   params.names            every parameter name, in manifest order
 *   params.specs            {name: spec} (type, min, max, options, length, maxLength, value, ...)
 *   params.defaults()       a fresh copy of every default
 *   params.copy(state)      a copy of the parameters of `state` (arrays copied)
 *   params.coerce(name, v)  the value to use, clamped into range; throws an Error naming the parameter
 *   params.merge(state, changes)  a copy of `state` with every known change coerced (throws, leaving
 *                                 `state` as it was, when one of them cannot be used)
 */
(function () {
  'use strict';

  if (window.SplitbrainParams) return;

  var hasOwn = Object.prototype.hasOwnProperty;

  function describe(value) {
    try {
      return JSON.stringify(value);
    } catch (error) {
      return String(value);
    }
  }

  function clamp(value, spec) {
    var low = spec.min === undefined ? -Infinity : spec.min;
    var high = spec.max === undefined ? Infinity : spec.max;
    return Math.min(high, Math.max(low, value));
  }

  function toNumber(name, value) {
    var number = NaN;
    if (typeof value === 'number') number = value;
    else if (typeof value === 'string' && value.trim() !== '') number = Number(value);
    if (!isFinite(number)) throw new Error(name + ': expected a number, got ' + describe(value));
    return number;
  }

  function toBoolean(name, value) {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 1) return true;
    if (value === 'false' || value === 0) return false;
    throw new Error(name + ': expected true or false, got ' + describe(value));
  }

  function toOption(name, spec, value) {
    var text = String(value).trim().toLowerCase();
    for (var i = 0; i < spec.options.length; i++) {
      if (spec.options[i].toLowerCase() === text) return spec.options[i];
    }
    throw new Error(name + ': expected one of ' + spec.options.join(', ') + ', got ' + describe(value));
  }

  function toText(name, spec, value) {
    if (value === null || value === undefined || typeof value === 'object') {
      throw new Error(name + ': expected a string, got ' + describe(value));
    }
    var text = String(value);
    return spec.maxLength === undefined ? text : text.slice(0, spec.maxLength);
  }

  function toColor(name, value) {
    var match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(String(value).trim());
    if (!match) throw new Error(name + ': expected a colour as #rrggbb, got ' + describe(value));
    var hex = match[1].toLowerCase();
    if (hex.length === 3) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
    return '#' + hex;
  }

  function toList(name, spec, value) {
    var list = value;
    var isRecord = list && typeof list === 'object' && !Array.isArray(list) && !ArrayBuffer.isView(list);
    if (isRecord && spec.length === 3 && 'x' in list) list = [list.x, list.y, list.z];
    if (!list || typeof list.length !== 'number' || list.length !== spec.length) {
      throw new Error(name + ': expected ' + spec.length + ' numbers, got ' + describe(value));
    }
    var out = [];
    for (var i = 0; i < spec.length; i++) out.push(clamp(toNumber(name + '[' + i + ']', list[i]), spec));
    return out;
  }

  function coerceWith(name, spec, value) {
    switch (spec.type) {
      case 'number':
        return clamp(toNumber(name, value), spec);
      case 'integer':
        return Math.round(clamp(toNumber(name, value), spec));
      case 'boolean':
        return toBoolean(name, value);
      case 'enum':
        return toOption(name, spec, value);
      case 'string':
        return toText(name, spec, value);
      case 'color':
        return toColor(name, value);
      case 'array':
        return toList(name, spec, value);
    }
    return value;
  }

  function copyValue(value) {
    return Array.isArray(value) ? value.slice() : value;
  }

  function flatten(manifest) {
    var specs = {};
    var names = [];
    Object.keys(manifest.params || {}).forEach(function (group) {
      var parameters = manifest.params[group];
      Object.keys(parameters).forEach(function (name) {
        specs[name] = parameters[name];
        names.push(name);
      });
    });
    return { specs: specs, names: names };
  }

  function fromManifest(manifest) {
    var source = manifest || window.SplitbrainManifest;
    if (!source || typeof source !== 'object' || !source.params) {
      throw new Error('SplitbrainParams: no manifest (load manifest.js before params.js, or pass the manifest)');
    }
    var flat = flatten(source);
    var specs = flat.specs;
    var names = flat.names;

    function copy(state) {
      var out = {};
      names.forEach(function (name) {
        out[name] = copyValue(state[name]);
      });
      return out;
    }

    function coerce(name, value) {
      if (!hasOwn.call(specs, name)) throw new Error('Unknown parameter "' + name + '"');
      return coerceWith(name, specs[name], value);
    }

    return Object.freeze({
      names: names.slice(),
      specs: specs,
      defaults: function () {
        var out = {};
        names.forEach(function (name) {
          out[name] = copyValue(specs[name].value);
        });
        return out;
      },
      copy: copy,
      has: function (name) {
        return hasOwn.call(specs, name);
      },
      coerce: coerce,
      merge: function (state, changes) {
        var next = copy(state);
        Object.keys(changes).forEach(function (name) {
          if (hasOwn.call(specs, name)) next[name] = coerce(name, changes[name]);
        });
        return next;
      },
    });
  }

  window.SplitbrainParams = Object.freeze({ fromManifest: fromManifest });
})();
