import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// node_modules/@jitl/quickjs-wasmfile-release-sync/dist/ffi.mjs
var ffi_exports = {};
__export(ffi_exports, {
  QuickJSFFI: () => QuickJSFFI
});
var QuickJSFFI;
var init_ffi = __esm({
  "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/ffi.mjs"() {
    QuickJSFFI = class {
      constructor(module) {
        this.module = module;
        this.DEBUG = false;
        this.QTS_Throw = this.module.cwrap("QTS_Throw", "number", ["number", "number"]);
        this.QTS_NewError = this.module.cwrap("QTS_NewError", "number", ["number"]);
        this.QTS_RuntimeSetMemoryLimit = this.module.cwrap("QTS_RuntimeSetMemoryLimit", null, ["number", "number"]);
        this.QTS_RuntimeComputeMemoryUsage = this.module.cwrap("QTS_RuntimeComputeMemoryUsage", "number", ["number", "number"]);
        this.QTS_RuntimeDumpMemoryUsage = this.module.cwrap("QTS_RuntimeDumpMemoryUsage", "number", ["number"]);
        this.QTS_RecoverableLeakCheck = this.module.cwrap("QTS_RecoverableLeakCheck", "number", []);
        this.QTS_BuildIsSanitizeLeak = this.module.cwrap("QTS_BuildIsSanitizeLeak", "number", []);
        this.QTS_RuntimeSetMaxStackSize = this.module.cwrap("QTS_RuntimeSetMaxStackSize", null, ["number", "number"]);
        this.QTS_GetUndefined = this.module.cwrap("QTS_GetUndefined", "number", []);
        this.QTS_GetNull = this.module.cwrap("QTS_GetNull", "number", []);
        this.QTS_GetFalse = this.module.cwrap("QTS_GetFalse", "number", []);
        this.QTS_GetTrue = this.module.cwrap("QTS_GetTrue", "number", []);
        this.QTS_NewHostRef = this.module.cwrap("QTS_NewHostRef", "number", ["number", "number"]);
        this.QTS_GetHostRefId = this.module.cwrap("QTS_GetHostRefId", "number", ["number"]);
        this.QTS_NewRuntime = this.module.cwrap("QTS_NewRuntime", "number", []);
        this.QTS_FreeRuntime = this.module.cwrap("QTS_FreeRuntime", null, ["number"]);
        this.QTS_NewContext = this.module.cwrap("QTS_NewContext", "number", ["number", "number"]);
        this.QTS_FreeContext = this.module.cwrap("QTS_FreeContext", null, ["number"]);
        this.QTS_FreeValuePointer = this.module.cwrap("QTS_FreeValuePointer", null, ["number", "number"]);
        this.QTS_FreeValuePointerRuntime = this.module.cwrap("QTS_FreeValuePointerRuntime", null, ["number", "number"]);
        this.QTS_FreeVoidPointer = this.module.cwrap("QTS_FreeVoidPointer", null, ["number", "number"]);
        this.QTS_FreeCString = this.module.cwrap("QTS_FreeCString", null, ["number", "number"]);
        this.QTS_DupValuePointer = this.module.cwrap("QTS_DupValuePointer", "number", ["number", "number"]);
        this.QTS_NewObject = this.module.cwrap("QTS_NewObject", "number", ["number"]);
        this.QTS_NewObjectProto = this.module.cwrap("QTS_NewObjectProto", "number", ["number", "number"]);
        this.QTS_NewArray = this.module.cwrap("QTS_NewArray", "number", ["number"]);
        this.QTS_NewArrayBuffer = this.module.cwrap("QTS_NewArrayBuffer", "number", ["number", "number", "number"]);
        this.QTS_NewFloat64 = this.module.cwrap("QTS_NewFloat64", "number", ["number", "number"]);
        this.QTS_GetFloat64 = this.module.cwrap("QTS_GetFloat64", "number", ["number", "number"]);
        this.QTS_NewString = this.module.cwrap("QTS_NewString", "number", ["number", "number"]);
        this.QTS_GetString = this.module.cwrap("QTS_GetString", "number", ["number", "number"]);
        this.QTS_GetArrayBuffer = this.module.cwrap("QTS_GetArrayBuffer", "number", ["number", "number"]);
        this.QTS_GetArrayBufferLength = this.module.cwrap("QTS_GetArrayBufferLength", "number", ["number", "number"]);
        this.QTS_NewSymbol = this.module.cwrap("QTS_NewSymbol", "number", ["number", "number", "number"]);
        this.QTS_GetSymbolDescriptionOrKey = this.module.cwrap("QTS_GetSymbolDescriptionOrKey", "number", ["number", "number"]);
        this.QTS_IsGlobalSymbol = this.module.cwrap("QTS_IsGlobalSymbol", "number", ["number", "number"]);
        this.QTS_IsJobPending = this.module.cwrap("QTS_IsJobPending", "number", ["number"]);
        this.QTS_ExecutePendingJob = this.module.cwrap("QTS_ExecutePendingJob", "number", ["number", "number", "number"]);
        this.QTS_GetProp = this.module.cwrap("QTS_GetProp", "number", ["number", "number", "number"]);
        this.QTS_GetPropNumber = this.module.cwrap("QTS_GetPropNumber", "number", ["number", "number", "number"]);
        this.QTS_SetProp = this.module.cwrap("QTS_SetProp", null, ["number", "number", "number", "number"]);
        this.QTS_DefineProp = this.module.cwrap("QTS_DefineProp", null, ["number", "number", "number", "number", "number", "number", "boolean", "boolean", "boolean"]);
        this.QTS_GetOwnPropertyNames = this.module.cwrap("QTS_GetOwnPropertyNames", "number", ["number", "number", "number", "number", "number"]);
        this.QTS_Call = this.module.cwrap("QTS_Call", "number", ["number", "number", "number", "number", "number"]);
        this.QTS_ResolveException = this.module.cwrap("QTS_ResolveException", "number", ["number", "number"]);
        this.QTS_Dump = this.module.cwrap("QTS_Dump", "number", ["number", "number"]);
        this.QTS_Eval = this.module.cwrap("QTS_Eval", "number", ["number", "number", "number", "string", "number", "number"]);
        this.QTS_GetModuleNamespace = this.module.cwrap("QTS_GetModuleNamespace", "number", ["number", "number"]);
        this.QTS_Typeof = this.module.cwrap("QTS_Typeof", "number", ["number", "number"]);
        this.QTS_GetLength = this.module.cwrap("QTS_GetLength", "number", ["number", "number", "number"]);
        this.QTS_IsEqual = this.module.cwrap("QTS_IsEqual", "number", ["number", "number", "number", "number"]);
        this.QTS_GetGlobalObject = this.module.cwrap("QTS_GetGlobalObject", "number", ["number"]);
        this.QTS_NewPromiseCapability = this.module.cwrap("QTS_NewPromiseCapability", "number", ["number", "number"]);
        this.QTS_PromiseState = this.module.cwrap("QTS_PromiseState", "number", ["number", "number"]);
        this.QTS_PromiseResult = this.module.cwrap("QTS_PromiseResult", "number", ["number", "number"]);
        this.QTS_TestStringArg = this.module.cwrap("QTS_TestStringArg", null, ["string"]);
        this.QTS_GetDebugLogEnabled = this.module.cwrap("QTS_GetDebugLogEnabled", "number", ["number"]);
        this.QTS_SetDebugLogEnabled = this.module.cwrap("QTS_SetDebugLogEnabled", null, ["number", "number"]);
        this.QTS_BuildIsDebug = this.module.cwrap("QTS_BuildIsDebug", "number", []);
        this.QTS_BuildIsAsyncify = this.module.cwrap("QTS_BuildIsAsyncify", "number", []);
        this.QTS_NewFunction = this.module.cwrap("QTS_NewFunction", "number", ["number", "string", "number", "boolean", "number"]);
        this.QTS_ArgvGetJSValueConstPointer = this.module.cwrap("QTS_ArgvGetJSValueConstPointer", "number", ["number", "number"]);
        this.QTS_RuntimeEnableInterruptHandler = this.module.cwrap("QTS_RuntimeEnableInterruptHandler", null, ["number"]);
        this.QTS_RuntimeDisableInterruptHandler = this.module.cwrap("QTS_RuntimeDisableInterruptHandler", null, ["number"]);
        this.QTS_RuntimeEnableModuleLoader = this.module.cwrap("QTS_RuntimeEnableModuleLoader", null, ["number", "number"]);
        this.QTS_RuntimeDisableModuleLoader = this.module.cwrap("QTS_RuntimeDisableModuleLoader", null, ["number"]);
        this.QTS_bjson_encode = this.module.cwrap("QTS_bjson_encode", "number", ["number", "number"]);
        this.QTS_bjson_decode = this.module.cwrap("QTS_bjson_decode", "number", ["number", "number"]);
      }
    };
  }
});

// node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.mjs
var emscripten_module_exports = {};
__export(emscripten_module_exports, {
  default: () => emscripten_module_default
});
async function QuickJSRaw(moduleArg = {}) {
  var moduleRtn;
  var d = moduleArg, aa = !!globalThis.window, n = !!globalThis.WorkerGlobalScope, q = globalThis.process?.versions?.node && "renderer" != globalThis.process?.type;
  if (q) {
    const { createRequire: a } = await import("node:module");
    var require2 = a(import.meta.url);
  }
  function r(a) {
    a = { log: a || function() {
    } };
    for (const c of r.Pa) c(a);
    return d.quickJSEmscriptenExtensions = a;
  }
  r.Pa = [];
  d.quickjsEmscriptenInit = r;
  r.Pa.push((a) => {
    a.getWasmMemory = function() {
      return t;
    };
  });
  var u = "./this.program", v = (a, c) => {
    throw c;
  }, w = import.meta.url, y = "", z, A;
  if (q) {
    var fs = require2("node:fs");
    w.startsWith("file:") && (y = require2("node:path").dirname(require2("node:url").fileURLToPath(w)) + "/");
    A = (a) => {
      a = B(a) ? new URL(a) : a;
      return fs.readFileSync(a);
    };
    z = async (a) => {
      a = B(a) ? new URL(a) : a;
      return fs.readFileSync(a, void 0);
    };
    1 < process.argv.length && (u = process.argv[1].replace(/\\/g, "/"));
    process.argv.slice(2);
    v = (a, c) => {
      process.exitCode = a;
      throw c;
    };
  } else if (aa || n) {
    try {
      y = new URL(".", w).href;
    } catch {
    }
    n && (A = (a) => {
      var c = new XMLHttpRequest();
      c.open("GET", a, false);
      c.responseType = "arraybuffer";
      c.send(null);
      return new Uint8Array(c.response);
    });
    z = async (a) => {
      if (B(a)) return new Promise((b, e) => {
        var f = new XMLHttpRequest();
        f.open("GET", a, true);
        f.responseType = "arraybuffer";
        f.onload = () => {
          200 == f.status || 0 == f.status && f.response ? b(f.response) : e(f.status);
        };
        f.onerror = e;
        f.send(null);
      });
      var c = await fetch(a, { credentials: "same-origin" });
      if (c.ok) return c.arrayBuffer();
      throw Error(c.status + " : " + c.url);
    };
  }
  var C = console.log.bind(console), D = console.error.bind(console), E, F = false, G, B = (a) => a.startsWith("file://"), H, I, J, K, L, M, ba = false;
  function ca() {
    var a = t.buffer;
    d.HEAP8 = J = new Int8Array(a);
    new Int16Array(a);
    d.HEAPU8 = K = new Uint8Array(a);
    new Uint16Array(a);
    L = new Int32Array(a);
    M = new Uint32Array(a);
    new Float32Array(a);
    new Float64Array(a);
    new BigInt64Array(a);
    new BigUint64Array(a);
  }
  function N(a) {
    d.onAbort?.(a);
    a = "Aborted(" + a + ")";
    D(a);
    F = true;
    a = new WebAssembly.RuntimeError(a + ". Build with -sASSERTIONS for more info.");
    I?.(a);
    throw a;
  }
  var O;
  async function da(a) {
    if (!E) try {
      var c = await z(a);
      return new Uint8Array(c);
    } catch {
    }
    if (a == O && E) a = new Uint8Array(E);
    else if (A) a = A(a);
    else throw "both async and sync fetching of the wasm failed";
    return a;
  }
  async function ea(a, c) {
    try {
      var b = await da(a);
      return await WebAssembly.instantiate(b, c);
    } catch (e) {
      D(`failed to asynchronously prepare wasm: ${e}`), N(e);
    }
  }
  async function fa(a) {
    var c = O;
    if (!E && !B(c) && !q) try {
      var b = fetch(c, { credentials: "same-origin" });
      return await WebAssembly.instantiateStreaming(b, a);
    } catch (e) {
      D(`wasm streaming compile failed: ${e}`), D("falling back to ArrayBuffer instantiation");
    }
    return ea(c, a);
  }
  class P {
    name = "ExitStatus";
    constructor(a) {
      this.message = `Program terminated with exit(${a})`;
      this.status = a;
    }
  }
  var ha = (a) => {
    for (; 0 < a.length; ) a.shift()(d);
  }, ia = [], ja = [], ka = () => {
    var a = d.preRun.shift();
    ja.push(a);
  }, Q = true, t, la = new TextDecoder(), ma = (a, c, b, e) => {
    b = c + b;
    if (e) return b;
    for (; a[c] && !(c >= b); ) ++c;
    return c;
  }, R = (a, c, b) => a ? la.decode(K.subarray(a, ma(K, a, c, b))) : "", S = 0, na = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335], oa = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334], T = {}, pa = (a) => {
    G = a;
    Q || 0 < S || (d.onExit?.(a), F = true);
    v(a, new P(a));
  }, qa = (a) => {
    if (!F) try {
      a();
    } catch (c) {
      c instanceof P || "unwind" == c || v(1, c);
    } finally {
      if (!(Q || 0 < S)) try {
        G = a = G, pa(a);
      } catch (c) {
        c instanceof P || "unwind" == c || v(1, c);
      }
    }
  }, U = (a, c, b) => {
    var e = K;
    if (!(0 < b)) return 0;
    var f = c;
    b = c + b - 1;
    for (var g = 0; g < a.length; ++g) {
      var h = a.codePointAt(g);
      if (127 >= h) {
        if (c >= b) break;
        e[c++] = h;
      } else if (2047 >= h) {
        if (c + 1 >= b) break;
        e[c++] = 192 | h >> 6;
        e[c++] = 128 | h & 63;
      } else if (65535 >= h) {
        if (c + 2 >= b) break;
        e[c++] = 224 | h >> 12;
        e[c++] = 128 | h >> 6 & 63;
        e[c++] = 128 | h & 63;
      } else {
        if (c + 3 >= b) break;
        e[c++] = 240 | h >> 18;
        e[c++] = 128 | h >> 12 & 63;
        e[c++] = 128 | h >> 6 & 63;
        e[c++] = 128 | h & 63;
        g++;
      }
    }
    e[c] = 0;
    return c - f;
  }, V = {}, ra = () => {
    if (!W) {
      var a = {
        USER: "web_user",
        LOGNAME: "web_user",
        PATH: "/",
        PWD: "/",
        HOME: "/home/web_user",
        LANG: (globalThis.navigator?.language ?? "C").replace("-", "_") + ".UTF-8",
        _: u || "./this.program"
      }, c;
      for (c in V) void 0 === V[c] ? delete a[c] : a[c] = V[c];
      var b = [];
      for (c in a) b.push(`${c}=${a[c]}`);
      W = b;
    }
    return W;
  }, W, X = (a) => {
    for (var c = 0, b = 0; b < a.length; ++b) {
      var e = a.charCodeAt(b);
      127 >= e ? c++ : 2047 >= e ? c += 2 : 55296 <= e && 57343 >= e ? (c += 4, ++b) : c += 3;
    }
    return c;
  }, sa = [null, [], []], va = (a, c, b, e) => {
    var f = { string: (k) => {
      var l = 0;
      if (null !== k && void 0 !== k && 0 !== k) {
        l = X(k) + 1;
        var p = Y(l);
        U(
          k,
          p,
          l
        );
        l = p;
      }
      return l;
    }, array: (k) => {
      var l = Y(k.length);
      J.set(k, l);
      return l;
    } };
    a = d["_" + a];
    var g = [], h = 0;
    if (e) for (var m = 0; m < e.length; m++) {
      var x = f[b[m]];
      x ? (0 === h && (h = ta()), g[m] = x(e[m])) : g[m] = e[m];
    }
    b = a(...g);
    return b = (function(k) {
      0 !== h && ua(h);
      return "string" === c ? R(k) : "boolean" === c ? !!k : k;
    })(b);
  };
  d.wasmMemory ? t = d.wasmMemory : t = new WebAssembly.Memory({ initial: (d.INITIAL_MEMORY || 16777216) / 65536, maximum: 32768 });
  ca();
  d.noExitRuntime && (Q = d.noExitRuntime);
  d.print && (C = d.print);
  d.printErr && (D = d.printErr);
  d.wasmBinary && (E = d.wasmBinary);
  d.thisProgram && (u = d.thisProgram);
  if (d.preInit) for ("function" == typeof d.preInit && (d.preInit = [d.preInit]); 0 < d.preInit.length; ) d.preInit.shift()();
  d.cwrap = (a, c, b, e) => {
    var f = !b || b.every((g) => "number" === g || "boolean" === g);
    return "string" !== c && f && !e ? d["_" + a] : (...g) => va(a, c, b, g);
  };
  d.UTF8ToString = R;
  d.stringToUTF8 = (a, c, b) => U(a, c, b);
  d.lengthBytesUTF8 = X;
  var wa, ua, Y, ta, xa = { b: (a, c, b, e) => N(`Assertion failed: ${R(a)}, at: ` + [c ? R(c) : "unknown filename", b, e ? R(e) : "unknown function"]), q: () => N(""), l: () => {
    Q = false;
    S = 0;
  }, m: function(a, c) {
    a = -9007199254740992 > a || 9007199254740992 < a ? NaN : Number(a);
    a = new Date(1e3 * a);
    L[c >> 2] = a.getSeconds();
    L[c + 4 >> 2] = a.getMinutes();
    L[c + 8 >> 2] = a.getHours();
    L[c + 12 >> 2] = a.getDate();
    L[c + 16 >> 2] = a.getMonth();
    L[c + 20 >> 2] = a.getFullYear() - 1900;
    L[c + 24 >> 2] = a.getDay();
    var b = a.getFullYear();
    L[c + 28 >> 2] = (0 !== b % 4 || 0 === b % 100 && 0 !== b % 400 ? oa : na)[a.getMonth()] + a.getDate() - 1 | 0;
    L[c + 36 >> 2] = -(60 * a.getTimezoneOffset());
    b = new Date(a.getFullYear(), 6, 1).getTimezoneOffset();
    var e = new Date(a.getFullYear(), 0, 1).getTimezoneOffset();
    L[c + 32 >> 2] = (b != e && a.getTimezoneOffset() == Math.min(e, b)) | 0;
  }, j: (a, c) => {
    T[a] && (clearTimeout(T[a].id), delete T[a]);
    if (!c) return 0;
    var b = setTimeout(() => {
      delete T[a];
      qa(() => wa(a, performance.now()));
    }, c);
    T[a] = { id: b, Qa: c };
    return 0;
  }, n: (a, c, b, e) => {
    var f = (/* @__PURE__ */ new Date()).getFullYear(), g = new Date(f, 0, 1).getTimezoneOffset();
    f = new Date(f, 6, 1).getTimezoneOffset();
    M[a >> 2] = 60 * Math.max(g, f);
    L[c >> 2] = Number(g != f);
    c = (h) => {
      var m = Math.abs(h);
      return `UTC${0 <= h ? "-" : "+"}${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}`;
    };
    a = c(g);
    c = c(f);
    f < g ? (U(a, b, 17), U(c, e, 17)) : (U(a, e, 17), U(c, b, 17));
  }, p: () => Date.now(), k: (a) => {
    var c = K.length;
    a >>>= 0;
    if (2147483648 < a) return false;
    for (var b = 1; 4 >= b; b *= 2) {
      var e = c * (1 + 0.2 / b);
      e = Math.min(e, a + 100663296);
      a: {
        e = (Math.min(2147483648, 65536 * Math.ceil(Math.max(a, e) / 65536)) - t.buffer.byteLength + 65535) / 65536 | 0;
        try {
          t.grow(e);
          ca();
          var f = 1;
          break a;
        } catch (g) {
        }
        f = void 0;
      }
      if (f) return true;
    }
    return false;
  }, e: (a, c) => {
    var b = 0, e = 0, f;
    for (f of ra()) {
      var g = c + b;
      M[a + e >> 2] = g;
      b += U(f, g, Infinity) + 1;
      e += 4;
    }
    return 0;
  }, f: (a, c) => {
    var b = ra();
    M[a >> 2] = b.length;
    a = 0;
    for (var e of b) a += X(e) + 1;
    M[c >> 2] = a;
    return 0;
  }, d: () => 52, o: function() {
    return 70;
  }, c: (a, c, b, e) => {
    for (var f = 0, g = 0; g < b; g++) {
      var h = M[c >> 2], m = M[c + 4 >> 2];
      c += 8;
      for (var x = 0; x < m; x++) {
        var k = a, l = K[h + x], p = sa[k];
        0 === l || 10 === l ? (k = 1 === k ? C : D, l = ma(p, 0), l = la.decode(p.buffer ? p.subarray(0, l) : new Uint8Array(p.slice(0, l))), k(l), p.length = 0) : p.push(l);
      }
      f += m;
    }
    M[e >> 2] = f;
    return 0;
  }, a: t, r: pa, s: function(a, c, b, e, f) {
    return d.callbacks.callFunction(void 0, a, c, b, e, f);
  }, i: function(a) {
    return d.callbacks.shouldInterrupt(void 0, a);
  }, h: function(a, c, b) {
    b = R(b);
    return d.callbacks.loadModuleSource(void 0, a, c, b);
  }, g: function(a, c, b, e) {
    b = R(b);
    e = R(e);
    return d.callbacks.normalizeModule(void 0, a, c, b, e);
  }, t: function(a, c) {
    d.callbacks.freeHostRef(void 0, a, c);
  } }, Z;
  Z = await (async function() {
    function a(b) {
      b = Z = b.exports;
      d._malloc = b.v;
      d._QTS_Throw = b.w;
      d._QTS_NewError = b.x;
      d._QTS_RuntimeSetMemoryLimit = b.y;
      d._QTS_RuntimeComputeMemoryUsage = b.z;
      d._QTS_RuntimeDumpMemoryUsage = b.A;
      d._QTS_RecoverableLeakCheck = b.B;
      d._QTS_BuildIsSanitizeLeak = b.C;
      d._QTS_RuntimeSetMaxStackSize = b.D;
      d._QTS_GetUndefined = b.E;
      d._QTS_GetNull = b.F;
      d._QTS_GetFalse = b.G;
      d._QTS_GetTrue = b.H;
      d._QTS_NewHostRef = b.I;
      d._QTS_GetHostRefId = b.J;
      d._QTS_NewRuntime = b.K;
      d._QTS_FreeRuntime = b.L;
      d._free = b.M;
      d._QTS_NewContext = b.N;
      d._QTS_FreeContext = b.O;
      d._QTS_FreeValuePointer = b.P;
      d._QTS_FreeValuePointerRuntime = b.Q;
      d._QTS_FreeVoidPointer = b.R;
      d._QTS_FreeCString = b.S;
      d._QTS_DupValuePointer = b.T;
      d._QTS_NewObject = b.U;
      d._QTS_NewObjectProto = b.V;
      d._QTS_NewArray = b.W;
      d._QTS_NewArrayBuffer = b.X;
      d._QTS_NewFloat64 = b.Y;
      d._QTS_GetFloat64 = b.Z;
      d._QTS_NewString = b._;
      d._QTS_GetString = b.$;
      d._QTS_GetArrayBuffer = b.aa;
      d._QTS_GetArrayBufferLength = b.ba;
      d._QTS_NewSymbol = b.ca;
      d._QTS_GetSymbolDescriptionOrKey = b.da;
      d._QTS_IsGlobalSymbol = b.ea;
      d._QTS_IsJobPending = b.fa;
      d._QTS_ExecutePendingJob = b.ga;
      d._QTS_GetProp = b.ha;
      d._QTS_GetPropNumber = b.ia;
      d._QTS_SetProp = b.ja;
      d._QTS_DefineProp = b.ka;
      d._QTS_GetOwnPropertyNames = b.la;
      d._QTS_Call = b.ma;
      d._QTS_ResolveException = b.na;
      d._QTS_Dump = b.oa;
      d._QTS_Eval = b.pa;
      d._QTS_GetModuleNamespace = b.qa;
      d._QTS_Typeof = b.ra;
      d._QTS_GetLength = b.sa;
      d._QTS_IsEqual = b.ta;
      d._QTS_GetGlobalObject = b.ua;
      d._QTS_NewPromiseCapability = b.va;
      d._QTS_PromiseState = b.wa;
      d._QTS_PromiseResult = b.xa;
      d._QTS_TestStringArg = b.ya;
      d._QTS_GetDebugLogEnabled = b.za;
      d._QTS_SetDebugLogEnabled = b.Aa;
      d._QTS_BuildIsDebug = b.Ba;
      d._QTS_BuildIsAsyncify = b.Ca;
      d._QTS_NewFunction = b.Da;
      d._QTS_ArgvGetJSValueConstPointer = b.Ea;
      d._QTS_RuntimeEnableInterruptHandler = b.Fa;
      d._QTS_RuntimeDisableInterruptHandler = b.Ga;
      d._QTS_RuntimeEnableModuleLoader = b.Ha;
      d._QTS_RuntimeDisableModuleLoader = b.Ia;
      d._QTS_bjson_encode = b.Ja;
      d._QTS_bjson_decode = b.Ka;
      wa = b.La;
      ua = b.Ma;
      Y = b.Na;
      ta = b.Oa;
      return Z;
    }
    var c = { a: xa };
    if (d.instantiateWasm) return new Promise((b) => {
      d.instantiateWasm(c, (e, f) => {
        b(a(e, f));
      });
    });
    O ??= d.locateFile ? d.locateFile ? d.locateFile("emscripten-module.wasm", y) : y + "emscripten-module.wasm" : new URL("emscripten-module.wasm", import.meta.url).href;
    return a((await fa(c)).instance);
  })();
  (function() {
    function a() {
      d.calledRun = true;
      if (!F) {
        ba = true;
        Z.u();
        H?.(d);
        d.onRuntimeInitialized?.();
        if (d.postRun) for ("function" == typeof d.postRun && (d.postRun = [d.postRun]); d.postRun.length; ) {
          var c = d.postRun.shift();
          ia.push(c);
        }
        ha(ia);
      }
    }
    if (d.preRun) for ("function" == typeof d.preRun && (d.preRun = [d.preRun]); d.preRun.length; ) ka();
    ha(ja);
    d.setStatus ? (d.setStatus("Running..."), setTimeout(() => {
      setTimeout(() => d.setStatus(""), 1);
      a();
    }, 1)) : a();
  })();
  ba ? moduleRtn = d : moduleRtn = new Promise((a, c) => {
    H = a;
    I = c;
  });
  ;
  return moduleRtn;
}
var emscripten_module_default;
var init_emscripten_module = __esm({
  "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.mjs"() {
    emscripten_module_default = QuickJSRaw;
  }
});

// node_modules/@jitl/quickjs-ffi-types/dist/index.mjs
var EvalFlags, IntrinsicsFlags, JSPromiseStateEnum, GetOwnPropertyNamesFlags, IsEqualOp;
var init_dist = __esm({
  "node_modules/@jitl/quickjs-ffi-types/dist/index.mjs"() {
    EvalFlags = { JS_EVAL_TYPE_GLOBAL: 0, JS_EVAL_TYPE_MODULE: 1, JS_EVAL_TYPE_DIRECT: 2, JS_EVAL_TYPE_INDIRECT: 3, JS_EVAL_TYPE_MASK: 3, JS_EVAL_FLAG_STRICT: 8, JS_EVAL_FLAG_STRIP: 16, JS_EVAL_FLAG_COMPILE_ONLY: 32, JS_EVAL_FLAG_BACKTRACE_BARRIER: 64 };
    IntrinsicsFlags = { BaseObjects: 1, Date: 2, Eval: 4, StringNormalize: 8, RegExp: 16, RegExpCompiler: 32, JSON: 64, Proxy: 128, MapSet: 256, TypedArrays: 512, Promise: 1024, BigInt: 2048, BigFloat: 4096, BigDecimal: 8192, OperatorOverloading: 16384, BignumExt: 32768 };
    JSPromiseStateEnum = { Pending: 0, Fulfilled: 1, Rejected: 2 };
    GetOwnPropertyNamesFlags = { JS_GPN_STRING_MASK: 1, JS_GPN_SYMBOL_MASK: 2, JS_GPN_PRIVATE_MASK: 4, JS_GPN_ENUM_ONLY: 16, JS_GPN_SET_ENUM: 32, QTS_GPN_NUMBER_MASK: 64, QTS_STANDARD_COMPLIANT_NUMBER: 128 };
    IsEqualOp = { IsStrictlyEqual: 0, IsSameValue: 1, IsSameValueZero: 2 };
  }
});

// node_modules/quickjs-emscripten-core/dist/chunk-V2S4ZYJR.mjs
function debugLog(...args) {
  QTS_DEBUG && console.log("quickjs-emscripten:", ...args);
}
function* awaitYield(value) {
  return yield value;
}
function awaitYieldOf(generator) {
  return awaitYield(awaitEachYieldedPromise(generator));
}
function maybeAsyncFn(that, fn) {
  return (...args) => {
    let generator = fn.call(that, AwaitYield, ...args);
    return awaitEachYieldedPromise(generator);
  };
}
function maybeAsync(that, startGenerator) {
  let generator = startGenerator.call(that, AwaitYield);
  return awaitEachYieldedPromise(generator);
}
function awaitEachYieldedPromise(gen) {
  function handleNextStep(step) {
    return step.done ? step.value : step.value instanceof Promise ? step.value.then((value) => handleNextStep(gen.next(value)), (error) => handleNextStep(gen.throw(error))) : handleNextStep(gen.next(step.value));
  }
  return handleNextStep(gen.next());
}
function scopeFinally(scope, blockError) {
  let disposeError;
  try {
    scope.dispose();
  } catch (error) {
    disposeError = error;
  }
  if (blockError && disposeError) throw Object.assign(blockError, { message: `${blockError.message}
 Then, failed to dispose scope: ${disposeError.message}`, disposeError }), blockError;
  if (blockError || disposeError) throw blockError || disposeError;
}
function createDisposableArray(items) {
  let array = items ? Array.from(items) : [];
  function disposeAlive() {
    return array.forEach((disposable) => disposable.alive ? disposable.dispose() : void 0);
  }
  function someIsAlive() {
    return array.some((disposable) => disposable.alive);
  }
  return Object.defineProperty(array, SymbolDispose, { configurable: true, enumerable: false, value: disposeAlive }), Object.defineProperty(array, "dispose", { configurable: true, enumerable: false, value: disposeAlive }), Object.defineProperty(array, "alive", { configurable: true, enumerable: false, get: someIsAlive }), array;
}
function isDisposable(value) {
  return !!(value && (typeof value == "object" || typeof value == "function") && "alive" in value && typeof value.alive == "boolean" && "dispose" in value && typeof value.dispose == "function");
}
function intrinsicsToFlags(intrinsics) {
  if (!intrinsics) return 0;
  let result = 0;
  for (let [maybeIntrinsicName, enabled] of Object.entries(intrinsics)) {
    if (!(maybeIntrinsicName in IntrinsicsFlags)) throw new QuickJSUnknownIntrinsic(maybeIntrinsicName);
    enabled && (result |= IntrinsicsFlags[maybeIntrinsicName]);
  }
  return result;
}
function evalOptionsToFlags(evalOptions) {
  if (typeof evalOptions == "number") return evalOptions;
  if (evalOptions === void 0) return 0;
  let { type, strict, strip, compileOnly, backtraceBarrier } = evalOptions, flags = 0;
  return type === "global" && (flags |= EvalFlags.JS_EVAL_TYPE_GLOBAL), type === "module" && (flags |= EvalFlags.JS_EVAL_TYPE_MODULE), strict && (flags |= EvalFlags.JS_EVAL_FLAG_STRICT), strip && (flags |= EvalFlags.JS_EVAL_FLAG_STRIP), compileOnly && (flags |= EvalFlags.JS_EVAL_FLAG_COMPILE_ONLY), backtraceBarrier && (flags |= EvalFlags.JS_EVAL_FLAG_BACKTRACE_BARRIER), flags;
}
function getOwnPropertyNamesOptionsToFlags(options) {
  if (typeof options == "number") return options;
  if (options === void 0) return 0;
  let { strings: includeStrings, symbols: includeSymbols, quickjsPrivate: includePrivate, onlyEnumerable, numbers: includeNumbers, numbersAsStrings } = options, flags = 0;
  return includeStrings && (flags |= GetOwnPropertyNamesFlags.JS_GPN_STRING_MASK), includeSymbols && (flags |= GetOwnPropertyNamesFlags.JS_GPN_SYMBOL_MASK), includePrivate && (flags |= GetOwnPropertyNamesFlags.JS_GPN_PRIVATE_MASK), onlyEnumerable && (flags |= GetOwnPropertyNamesFlags.JS_GPN_ENUM_ONLY), includeNumbers && (flags |= GetOwnPropertyNamesFlags.QTS_GPN_NUMBER_MASK), numbersAsStrings && (flags |= GetOwnPropertyNamesFlags.QTS_STANDARD_COMPLIANT_NUMBER), flags;
}
function concat(...values) {
  let result = [];
  for (let value of values) value !== void 0 && (result = result.concat(value));
  return result;
}
function getGroupId(id) {
  return id >> 8;
}
function applyBaseRuntimeOptions(runtime, options) {
  options.interruptHandler && runtime.setInterruptHandler(options.interruptHandler), options.maxStackSizeBytes !== void 0 && runtime.setMaxStackSize(options.maxStackSizeBytes), options.memoryLimitBytes !== void 0 && runtime.setMemoryLimit(options.memoryLimitBytes);
}
function applyModuleEvalRuntimeOptions(runtime, options) {
  options.moduleLoader && runtime.setModuleLoader(options.moduleLoader), options.shouldInterrupt && runtime.setInterruptHandler(options.shouldInterrupt), options.memoryLimitBytes !== void 0 && runtime.setMemoryLimit(options.memoryLimitBytes), options.maxStackSizeBytes !== void 0 && runtime.setMaxStackSize(options.maxStackSizeBytes);
}
var __defProp2, __export2, QTS_DEBUG, errors_exports, QuickJSUnwrapError, QuickJSWrongOwner, QuickJSUseAfterFree, QuickJSNotImplemented, QuickJSAsyncifyError, QuickJSAsyncifySuspended, QuickJSMemoryLeakDetected, QuickJSEmscriptenModuleError, QuickJSUnknownIntrinsic, QuickJSPromisePending, QuickJSEmptyGetOwnPropertyNames, QuickJSHostRefRangeExceeded, QuickJSHostRefInvalid, AwaitYield, UsingDisposable, SymbolDispose, prototypeAsAny, Lifetime, StaticLifetime, WeakLifetime, Scope, AbstractDisposableResult, DisposableSuccess, DisposableFail, DisposableResult, QuickJSDeferredPromise, ModuleMemory, DefaultIntrinsics, QuickJSIterator, INT32_MIN, INT32_MAX, INVALID_HOST_REF_ID, HostRefMap, HostRef, ContextMemory, QuickJSContext, QuickJSRuntime, QuickJSEmscriptenModuleCallbacks, QuickJSModuleCallbacks, QuickJSWASMModule;
var init_chunk_V2S4ZYJR = __esm({
  "node_modules/quickjs-emscripten-core/dist/chunk-V2S4ZYJR.mjs"() {
    init_dist();
    init_dist();
    __defProp2 = Object.defineProperty;
    __export2 = (target, all) => {
      for (var name in all) __defProp2(target, name, { get: all[name], enumerable: true });
    };
    QTS_DEBUG = false;
    errors_exports = {};
    __export2(errors_exports, { QuickJSAsyncifyError: () => QuickJSAsyncifyError, QuickJSAsyncifySuspended: () => QuickJSAsyncifySuspended, QuickJSEmptyGetOwnPropertyNames: () => QuickJSEmptyGetOwnPropertyNames, QuickJSEmscriptenModuleError: () => QuickJSEmscriptenModuleError, QuickJSHostRefInvalid: () => QuickJSHostRefInvalid, QuickJSHostRefRangeExceeded: () => QuickJSHostRefRangeExceeded, QuickJSMemoryLeakDetected: () => QuickJSMemoryLeakDetected, QuickJSNotImplemented: () => QuickJSNotImplemented, QuickJSPromisePending: () => QuickJSPromisePending, QuickJSUnknownIntrinsic: () => QuickJSUnknownIntrinsic, QuickJSUnwrapError: () => QuickJSUnwrapError, QuickJSUseAfterFree: () => QuickJSUseAfterFree, QuickJSWrongOwner: () => QuickJSWrongOwner });
    QuickJSUnwrapError = class extends Error {
      constructor(cause, context) {
        let message = typeof cause == "object" && cause && "message" in cause ? String(cause.message) : String(cause);
        super(message);
        this.cause = cause;
        this.context = context;
        this.name = "QuickJSUnwrapError";
      }
    };
    QuickJSWrongOwner = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSWrongOwner";
      }
    };
    QuickJSUseAfterFree = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSUseAfterFree";
      }
    };
    QuickJSNotImplemented = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSNotImplemented";
      }
    };
    QuickJSAsyncifyError = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSAsyncifyError";
      }
    };
    QuickJSAsyncifySuspended = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSAsyncifySuspended";
      }
    };
    QuickJSMemoryLeakDetected = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSMemoryLeakDetected";
      }
    };
    QuickJSEmscriptenModuleError = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSEmscriptenModuleError";
      }
    };
    QuickJSUnknownIntrinsic = class extends TypeError {
      constructor() {
        super(...arguments);
        this.name = "QuickJSUnknownIntrinsic";
      }
    };
    QuickJSPromisePending = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSPromisePending";
      }
    };
    QuickJSEmptyGetOwnPropertyNames = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSEmptyGetOwnPropertyNames";
      }
    };
    QuickJSHostRefRangeExceeded = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSHostRefRangeExceeded";
      }
    };
    QuickJSHostRefInvalid = class extends Error {
      constructor() {
        super(...arguments);
        this.name = "QuickJSHostRefInvalid";
      }
    };
    AwaitYield = awaitYield;
    AwaitYield.of = awaitYieldOf;
    UsingDisposable = class {
      [Symbol.dispose]() {
        return this.dispose();
      }
    };
    SymbolDispose = Symbol.dispose ?? /* @__PURE__ */ Symbol.for("Symbol.dispose");
    prototypeAsAny = UsingDisposable.prototype;
    prototypeAsAny[SymbolDispose] || (prototypeAsAny[SymbolDispose] = function() {
      return this.dispose();
    });
    Lifetime = class _Lifetime extends UsingDisposable {
      constructor(_value, copier, disposer, _owner) {
        super();
        this._value = _value;
        this.copier = copier;
        this.disposer = disposer;
        this._owner = _owner;
        this._alive = true;
        this._constructorStack = QTS_DEBUG ? new Error("Lifetime constructed").stack : void 0;
      }
      get alive() {
        return this._alive;
      }
      get value() {
        return this.assertAlive(), this._value;
      }
      get owner() {
        return this._owner;
      }
      get dupable() {
        return !!this.copier;
      }
      dup() {
        if (this.assertAlive(), !this.copier) throw new Error("Non-dupable lifetime");
        return new _Lifetime(this.copier(this._value), this.copier, this.disposer, this._owner);
      }
      consume(map) {
        this.assertAlive();
        let result = map(this);
        return this.dispose(), result;
      }
      map(map) {
        return this.assertAlive(), map(this);
      }
      tap(fn) {
        return fn(this), this;
      }
      dispose() {
        this.assertAlive(), this.disposer && this.disposer(this._value), this._alive = false;
      }
      assertAlive() {
        if (!this.alive) throw this._constructorStack ? new QuickJSUseAfterFree(`Lifetime not alive
${this._constructorStack}
Lifetime used`) : new QuickJSUseAfterFree("Lifetime not alive");
      }
    };
    StaticLifetime = class extends Lifetime {
      constructor(value, owner) {
        super(value, void 0, void 0, owner);
      }
      get dupable() {
        return true;
      }
      dup() {
        return this;
      }
      dispose() {
      }
    };
    WeakLifetime = class extends Lifetime {
      constructor(value, copier, disposer, owner) {
        super(value, copier, disposer, owner);
      }
      dispose() {
        this._alive = false;
      }
    };
    Scope = class _Scope extends UsingDisposable {
      constructor() {
        super(...arguments);
        this._disposables = new Lifetime(/* @__PURE__ */ new Set());
        this.manage = (lifetime) => (this._disposables.value.add(lifetime), lifetime);
      }
      static withScope(block) {
        let scope = new _Scope(), blockError;
        try {
          return block(scope);
        } catch (error) {
          throw blockError = error, error;
        } finally {
          scopeFinally(scope, blockError);
        }
      }
      static withScopeMaybeAsync(_this, block) {
        return maybeAsync(void 0, function* (awaited) {
          let scope = new _Scope(), blockError;
          try {
            return yield* awaited.of(block.call(_this, awaited, scope));
          } catch (error) {
            throw blockError = error, error;
          } finally {
            scopeFinally(scope, blockError);
          }
        });
      }
      static async withScopeAsync(block) {
        let scope = new _Scope(), blockError;
        try {
          return await block(scope);
        } catch (error) {
          throw blockError = error, error;
        } finally {
          scopeFinally(scope, blockError);
        }
      }
      get alive() {
        return this._disposables.alive;
      }
      dispose() {
        let lifetimes = Array.from(this._disposables.value.values()).reverse();
        for (let lifetime of lifetimes) lifetime.alive && lifetime.dispose();
        this._disposables.dispose();
      }
    };
    AbstractDisposableResult = class _AbstractDisposableResult extends UsingDisposable {
      static success(value) {
        return new DisposableSuccess(value);
      }
      static fail(error, onUnwrap) {
        return new DisposableFail(error, onUnwrap);
      }
      static is(result) {
        return result instanceof _AbstractDisposableResult;
      }
    };
    DisposableSuccess = class extends AbstractDisposableResult {
      constructor(value) {
        super();
        this.value = value;
      }
      get alive() {
        return isDisposable(this.value) ? this.value.alive : true;
      }
      dispose() {
        isDisposable(this.value) && this.value.dispose();
      }
      unwrap() {
        return this.value;
      }
      unwrapOr(_fallback) {
        return this.value;
      }
    };
    DisposableFail = class extends AbstractDisposableResult {
      constructor(error, onUnwrap) {
        super();
        this.error = error;
        this.onUnwrap = onUnwrap;
      }
      get alive() {
        return isDisposable(this.error) ? this.error.alive : true;
      }
      dispose() {
        isDisposable(this.error) && this.error.dispose();
      }
      unwrap() {
        throw this.onUnwrap(this), this.error;
      }
      unwrapOr(fallback) {
        return fallback;
      }
    };
    DisposableResult = AbstractDisposableResult;
    QuickJSDeferredPromise = class extends UsingDisposable {
      constructor(args) {
        super();
        this.resolve = (value) => {
          this.resolveHandle.alive && (this.context.unwrapResult(this.context.callFunction(this.resolveHandle, this.context.undefined, value || this.context.undefined)).dispose(), this.disposeResolvers(), this.onSettled());
        };
        this.reject = (value) => {
          this.rejectHandle.alive && (this.context.unwrapResult(this.context.callFunction(this.rejectHandle, this.context.undefined, value || this.context.undefined)).dispose(), this.disposeResolvers(), this.onSettled());
        };
        this.dispose = () => {
          this.handle.alive && this.handle.dispose(), this.disposeResolvers();
        };
        this.context = args.context, this.owner = args.context.runtime, this.handle = args.promiseHandle, this.settled = new Promise((resolve) => {
          this.onSettled = resolve;
        }), this.resolveHandle = args.resolveHandle, this.rejectHandle = args.rejectHandle;
      }
      get alive() {
        return this.handle.alive || this.resolveHandle.alive || this.rejectHandle.alive;
      }
      disposeResolvers() {
        this.resolveHandle.alive && this.resolveHandle.dispose(), this.rejectHandle.alive && this.rejectHandle.dispose();
      }
    };
    ModuleMemory = class {
      constructor(module) {
        this.module = module;
      }
      toPointerArray(handleArray) {
        let typedArray = new Int32Array(handleArray.map((handle) => handle.value)), numBytes = typedArray.length * typedArray.BYTES_PER_ELEMENT, ptr = this.module._malloc(numBytes);
        return new Uint8Array(this.module.HEAPU8.buffer, ptr, numBytes).set(new Uint8Array(typedArray.buffer)), new Lifetime(ptr, void 0, (ptr2) => this.module._free(ptr2));
      }
      newTypedArray(kind, length) {
        let zeros = new kind(new Array(length).fill(0)), numBytes = zeros.length * zeros.BYTES_PER_ELEMENT, ptr = this.module._malloc(numBytes), typedArray = new kind(this.module.HEAPU8.buffer, ptr, length);
        return typedArray.set(zeros), new Lifetime({ typedArray, ptr }, void 0, (value) => this.module._free(value.ptr));
      }
      newMutablePointerArray(length) {
        return this.newTypedArray(Int32Array, length);
      }
      newHeapCharPointer(string) {
        let strlen = this.module.lengthBytesUTF8(string), dataBytes = strlen + 1, ptr = this.module._malloc(dataBytes);
        return this.module.stringToUTF8(string, ptr, dataBytes), new Lifetime({ ptr, strlen }, void 0, (value) => this.module._free(value.ptr));
      }
      newHeapBufferPointer(buffer) {
        let numBytes = buffer.byteLength, ptr = this.module._malloc(numBytes);
        return this.module.HEAPU8.set(buffer, ptr), new Lifetime({ pointer: ptr, numBytes }, void 0, (value) => this.module._free(value.pointer));
      }
      consumeHeapCharPointer(ptr) {
        let str = this.module.UTF8ToString(ptr);
        return this.module._free(ptr), str;
      }
    };
    DefaultIntrinsics = Object.freeze({ BaseObjects: true, Date: true, Eval: true, StringNormalize: true, RegExp: true, JSON: true, Proxy: true, MapSet: true, TypedArrays: true, Promise: true });
    QuickJSIterator = class extends UsingDisposable {
      constructor(handle, context) {
        super();
        this.handle = handle;
        this.context = context;
        this._isDone = false;
        this.owner = context.runtime;
      }
      [Symbol.iterator]() {
        return this;
      }
      next(value) {
        if (!this.alive || this._isDone) return { done: true, value: void 0 };
        let nextMethod = this._next ?? (this._next = this.context.getProp(this.handle, "next"));
        return this.callIteratorMethod(nextMethod, value);
      }
      return(value) {
        if (!this.alive) return { done: true, value: void 0 };
        let returnMethod = this.context.getProp(this.handle, "return");
        if (returnMethod === this.context.undefined && value === void 0) return this.dispose(), { done: true, value: void 0 };
        let result = this.callIteratorMethod(returnMethod, value);
        return returnMethod.dispose(), this.dispose(), result;
      }
      throw(e) {
        if (!this.alive) return { done: true, value: void 0 };
        let errorHandle = e instanceof Lifetime ? e : this.context.newError(e), throwMethod = this.context.getProp(this.handle, "throw"), result = this.callIteratorMethod(throwMethod, e);
        return errorHandle.alive && errorHandle.dispose(), throwMethod.dispose(), this.dispose(), result;
      }
      get alive() {
        return this.handle.alive;
      }
      dispose() {
        this._isDone = true, this.handle.dispose(), this._next?.dispose();
      }
      callIteratorMethod(method, input) {
        let callResult = input ? this.context.callFunction(method, this.handle, input) : this.context.callFunction(method, this.handle);
        if (callResult.error) return this.dispose(), { value: callResult };
        let done = this.context.getProp(callResult.value, "done").consume((v) => this.context.dump(v)), value = this.context.getProp(callResult.value, "value");
        return callResult.value.dispose(), done && this.dispose(), { value: DisposableResult.success(value), done };
      }
    };
    INT32_MIN = -2147483648;
    INT32_MAX = 2147483647;
    INVALID_HOST_REF_ID = 0;
    HostRefMap = class {
      constructor() {
        this.nextId = INT32_MIN;
        this.freelist = [];
        this.groups = /* @__PURE__ */ new Map();
      }
      put(value) {
        let id = this.allocateId(), groupId = getGroupId(id), group = this.groups.get(groupId);
        return group || (group = /* @__PURE__ */ new Map(), this.groups.set(groupId, group)), group.set(id, value), id;
      }
      get(id) {
        if (id === INVALID_HOST_REF_ID) throw new QuickJSHostRefInvalid("no host reference id defined");
        let groupId = getGroupId(id), group = this.groups.get(groupId);
        if (!group) throw new QuickJSHostRefInvalid(`host reference id ${id} is not defined`);
        let value = group.get(id);
        if (!value) throw new QuickJSHostRefInvalid(`host reference id ${id} is not defined`);
        return value;
      }
      delete(id) {
        if (id === INVALID_HOST_REF_ID) throw new QuickJSHostRefInvalid("no host reference id defined");
        let groupId = getGroupId(id), group = this.groups.get(groupId);
        if (!group) throw new QuickJSHostRefInvalid(`host reference id ${id} is not defined`);
        group.delete(id), group.size === 0 && this.groups.delete(groupId), this.freelist.push(id);
      }
      allocateId() {
        if (this.freelist.length > 0) return this.freelist.shift();
        if (this.nextId === INVALID_HOST_REF_ID && this.nextId++, this.nextId > INT32_MAX) throw new QuickJSHostRefRangeExceeded(`HostRefMap: too many host refs created without disposing. Max simultaneous host refs: ${INT32_MAX - INT32_MIN}`);
        return this.nextId++;
      }
    };
    HostRef = class extends UsingDisposable {
      constructor(runtime, handle, id) {
        if (id === INVALID_HOST_REF_ID) throw new QuickJSHostRefInvalid("cannot create HostRef with undefined id");
        super();
        this.runtime = runtime;
        this.handle = handle;
        this.id = id;
      }
      get alive() {
        return this.handle.alive;
      }
      dispose() {
        this.handle.dispose();
      }
      get value() {
        return this.runtime.hostRefs.get(this.id);
      }
    };
    ContextMemory = class extends ModuleMemory {
      constructor(args) {
        super(args.module);
        this.scope = new Scope();
        this.copyJSValue = (ptr) => this.ffi.QTS_DupValuePointer(this.ctx.value, ptr);
        this.freeJSValue = (ptr) => {
          this.ffi.QTS_FreeValuePointer(this.ctx.value, ptr);
        };
        args.ownedLifetimes?.forEach((lifetime) => this.scope.manage(lifetime)), this.owner = args.owner, this.module = args.module, this.ffi = args.ffi, this.rt = args.rt, this.ctx = this.scope.manage(args.ctx);
      }
      get alive() {
        return this.scope.alive;
      }
      dispose() {
        return this.scope.dispose();
      }
      [Symbol.dispose]() {
        return this.dispose();
      }
      manage(lifetime) {
        return this.scope.manage(lifetime);
      }
      consumeJSCharPointer(ptr) {
        let str = this.module.UTF8ToString(ptr);
        return this.ffi.QTS_FreeCString(this.ctx.value, ptr), str;
      }
      heapValueHandle(ptr, extraDispose) {
        let dispose = extraDispose ? (val) => {
          extraDispose(), this.freeJSValue(val);
        } : this.freeJSValue;
        return new Lifetime(ptr, this.copyJSValue, dispose, this.owner);
      }
      staticHeapValueHandle(ptr) {
        return this.manage(this.heapValueHandle(ptr)), new StaticLifetime(ptr, this.owner);
      }
    };
    QuickJSContext = class extends UsingDisposable {
      constructor(args) {
        super();
        this._undefined = void 0;
        this._null = void 0;
        this._false = void 0;
        this._true = void 0;
        this._global = void 0;
        this._BigInt = void 0;
        this._Symbol = void 0;
        this._SymbolIterator = void 0;
        this._SymbolAsyncIterator = void 0;
        this.cToHostCallbacks = { callFunction: (ctx, this_ptr, argc, argv, fn_id) => {
          if (ctx !== this.ctx.value) throw new Error("QuickJSContext instance received C -> JS call with mismatched ctx");
          let fn = this.getFunction(fn_id);
          return Scope.withScopeMaybeAsync(this, function* (awaited, scope) {
            let thisHandle = scope.manage(new WeakLifetime(this_ptr, this.memory.copyJSValue, this.memory.freeJSValue, this.runtime)), argHandles = new Array(argc);
            for (let i = 0; i < argc; i++) {
              let ptr = this.ffi.QTS_ArgvGetJSValueConstPointer(argv, i);
              argHandles[i] = scope.manage(new WeakLifetime(ptr, this.memory.copyJSValue, this.memory.freeJSValue, this.runtime));
            }
            try {
              let result = yield* awaited(fn.apply(thisHandle, argHandles));
              if (result) {
                if ("error" in result && result.error) throw this.runtime.debugLog("throw error", result.error), result.error;
                let handle = scope.manage(result instanceof Lifetime ? result : result.value);
                return this.ffi.QTS_DupValuePointer(this.ctx.value, handle.value);
              }
              return 0;
            } catch (error) {
              return this.errorToHandle(error).consume((errorHandle) => this.ffi.QTS_Throw(this.ctx.value, errorHandle.value));
            }
          });
        } };
        this.runtime = args.runtime, this.module = args.module, this.ffi = args.ffi, this.rt = args.rt, this.ctx = args.ctx, this.memory = new ContextMemory({ ...args, owner: this.runtime }), args.callbacks.setContextCallbacks(this.ctx.value, this.cToHostCallbacks), this.dump = this.dump.bind(this), this.getString = this.getString.bind(this), this.getNumber = this.getNumber.bind(this), this.resolvePromise = this.resolvePromise.bind(this), this.uint32Out = this.memory.manage(this.memory.newTypedArray(Uint32Array, 1));
      }
      get alive() {
        return this.memory.alive;
      }
      dispose() {
        this.memory.dispose();
      }
      get undefined() {
        if (this._undefined) return this._undefined;
        let ptr = this.ffi.QTS_GetUndefined();
        return this._undefined = new StaticLifetime(ptr);
      }
      get null() {
        if (this._null) return this._null;
        let ptr = this.ffi.QTS_GetNull();
        return this._null = new StaticLifetime(ptr);
      }
      get true() {
        if (this._true) return this._true;
        let ptr = this.ffi.QTS_GetTrue();
        return this._true = new StaticLifetime(ptr);
      }
      get false() {
        if (this._false) return this._false;
        let ptr = this.ffi.QTS_GetFalse();
        return this._false = new StaticLifetime(ptr);
      }
      get global() {
        if (this._global) return this._global;
        let ptr = this.ffi.QTS_GetGlobalObject(this.ctx.value);
        return this._global = this.memory.staticHeapValueHandle(ptr), this._global;
      }
      newNumber(num) {
        return this.memory.heapValueHandle(this.ffi.QTS_NewFloat64(this.ctx.value, num));
      }
      newString(str) {
        let ptr = this.memory.newHeapCharPointer(str).consume((charHandle) => this.ffi.QTS_NewString(this.ctx.value, charHandle.value.ptr));
        return this.memory.heapValueHandle(ptr);
      }
      newUniqueSymbol(description) {
        let key = (typeof description == "symbol" ? description.description : description) ?? "", ptr = this.memory.newHeapCharPointer(key).consume((charHandle) => this.ffi.QTS_NewSymbol(this.ctx.value, charHandle.value.ptr, 0));
        return this.memory.heapValueHandle(ptr);
      }
      newSymbolFor(key) {
        let description = (typeof key == "symbol" ? key.description : key) ?? "", ptr = this.memory.newHeapCharPointer(description).consume((charHandle) => this.ffi.QTS_NewSymbol(this.ctx.value, charHandle.value.ptr, 1));
        return this.memory.heapValueHandle(ptr);
      }
      getWellKnownSymbol(name) {
        return this._Symbol ?? (this._Symbol = this.memory.manage(this.getProp(this.global, "Symbol"))), this.getProp(this._Symbol, name);
      }
      newBigInt(num) {
        if (!this._BigInt) {
          let bigIntHandle2 = this.getProp(this.global, "BigInt");
          this.memory.manage(bigIntHandle2), this._BigInt = new StaticLifetime(bigIntHandle2.value, this.runtime);
        }
        let bigIntHandle = this._BigInt, asString = String(num);
        return this.newString(asString).consume((handle) => this.unwrapResult(this.callFunction(bigIntHandle, this.undefined, handle)));
      }
      newObject(prototype) {
        prototype && this.runtime.assertOwned(prototype);
        let ptr = prototype ? this.ffi.QTS_NewObjectProto(this.ctx.value, prototype.value) : this.ffi.QTS_NewObject(this.ctx.value);
        return this.memory.heapValueHandle(ptr);
      }
      newArray() {
        let ptr = this.ffi.QTS_NewArray(this.ctx.value);
        return this.memory.heapValueHandle(ptr);
      }
      newArrayBuffer(buffer) {
        let array = new Uint8Array(buffer), handle = this.memory.newHeapBufferPointer(array), ptr = this.ffi.QTS_NewArrayBuffer(this.ctx.value, handle.value.pointer, array.length);
        return this.memory.heapValueHandle(ptr);
      }
      newPromise(value) {
        let deferredPromise = Scope.withScope((scope) => {
          let mutablePointerArray = scope.manage(this.memory.newMutablePointerArray(2)), promisePtr = this.ffi.QTS_NewPromiseCapability(this.ctx.value, mutablePointerArray.value.ptr), promiseHandle = this.memory.heapValueHandle(promisePtr), [resolveHandle, rejectHandle] = Array.from(mutablePointerArray.value.typedArray).map((jsvaluePtr) => this.memory.heapValueHandle(jsvaluePtr));
          return new QuickJSDeferredPromise({ context: this, promiseHandle, resolveHandle, rejectHandle });
        });
        return value && typeof value == "function" && (value = new Promise(value)), value && Promise.resolve(value).then(deferredPromise.resolve, (error) => error instanceof Lifetime ? deferredPromise.reject(error) : this.newError(error).consume(deferredPromise.reject)), deferredPromise;
      }
      newFunction(nameOrFn, maybeFn) {
        let fn = typeof nameOrFn == "function" ? nameOrFn : maybeFn;
        if (!fn) throw new TypeError("Expected a function");
        return this.newFunctionWithOptions({ name: typeof nameOrFn == "string" ? nameOrFn : void 0, length: fn.length, isConstructor: false, fn });
      }
      newConstructorFunction(nameOrFn, maybeFn) {
        let fn = typeof nameOrFn == "function" ? nameOrFn : maybeFn;
        if (!fn) throw new TypeError("Expected a function");
        return this.newFunctionWithOptions({ name: typeof nameOrFn == "string" ? nameOrFn : void 0, length: fn.length, isConstructor: true, fn });
      }
      newFunctionWithOptions(args) {
        let { name, length, isConstructor, fn } = args, refId = this.runtime.hostRefs.put(fn);
        try {
          return this.memory.heapValueHandle(this.ffi.QTS_NewFunction(this.ctx.value, name ?? "", length, isConstructor, refId));
        } catch (error) {
          throw this.runtime.hostRefs.delete(refId), error;
        }
      }
      newError(error) {
        let errorHandle = this.memory.heapValueHandle(this.ffi.QTS_NewError(this.ctx.value));
        return error && typeof error == "object" ? (error.name !== void 0 && this.newString(error.name).consume((handle) => this.setProp(errorHandle, "name", handle)), error.message !== void 0 && this.newString(error.message).consume((handle) => this.setProp(errorHandle, "message", handle))) : typeof error == "string" ? this.newString(error).consume((handle) => this.setProp(errorHandle, "message", handle)) : error !== void 0 && this.newString(String(error)).consume((handle) => this.setProp(errorHandle, "message", handle)), errorHandle;
      }
      newHostRef(value) {
        let id = this.runtime.hostRefs.put(value);
        try {
          let handle = this.memory.heapValueHandle(this.ffi.QTS_NewHostRef(this.ctx.value, id));
          return new HostRef(this.runtime, handle, id);
        } catch (error) {
          throw this.runtime.hostRefs.delete(id), error;
        }
      }
      toHostRef(handle) {
        let id = this.ffi.QTS_GetHostRefId(handle.value);
        if (id !== 0) return this.runtime.hostRefs.get(id), new HostRef(this.runtime, handle.dup(), id);
      }
      unwrapHostRef(handle) {
        let id = this.ffi.QTS_GetHostRefId(handle.value);
        if (id === 0) throw new QuickJSHostRefInvalid("handle is not a HostRef");
        return this.runtime.hostRefs.get(id);
      }
      typeof(handle) {
        return this.runtime.assertOwned(handle), this.memory.consumeHeapCharPointer(this.ffi.QTS_Typeof(this.ctx.value, handle.value));
      }
      getNumber(handle) {
        return this.runtime.assertOwned(handle), this.ffi.QTS_GetFloat64(this.ctx.value, handle.value);
      }
      getString(handle) {
        return this.runtime.assertOwned(handle), this.memory.consumeJSCharPointer(this.ffi.QTS_GetString(this.ctx.value, handle.value));
      }
      getSymbol(handle) {
        this.runtime.assertOwned(handle);
        let key = this.memory.consumeJSCharPointer(this.ffi.QTS_GetSymbolDescriptionOrKey(this.ctx.value, handle.value));
        return this.ffi.QTS_IsGlobalSymbol(this.ctx.value, handle.value) ? Symbol.for(key) : Symbol(key);
      }
      getBigInt(handle) {
        this.runtime.assertOwned(handle);
        let asString = this.getString(handle);
        return BigInt(asString);
      }
      getArrayBuffer(handle) {
        this.runtime.assertOwned(handle);
        let len = this.ffi.QTS_GetArrayBufferLength(this.ctx.value, handle.value), ptr = this.ffi.QTS_GetArrayBuffer(this.ctx.value, handle.value);
        if (!ptr) throw new Error("Couldn't allocate memory to get ArrayBuffer");
        return new Lifetime(this.module.HEAPU8.subarray(ptr, ptr + len), void 0, () => this.module._free(ptr));
      }
      getPromiseState(handle) {
        this.runtime.assertOwned(handle);
        let state = this.ffi.QTS_PromiseState(this.ctx.value, handle.value);
        if (state < 0) return { type: "fulfilled", value: handle, notAPromise: true };
        if (state === JSPromiseStateEnum.Pending) return { type: "pending", get error() {
          return new QuickJSPromisePending("Cannot unwrap a pending promise");
        } };
        let ptr = this.ffi.QTS_PromiseResult(this.ctx.value, handle.value), result = this.memory.heapValueHandle(ptr);
        if (state === JSPromiseStateEnum.Fulfilled) return { type: "fulfilled", value: result };
        if (state === JSPromiseStateEnum.Rejected) return { type: "rejected", error: result };
        throw result.dispose(), new Error(`Unknown JSPromiseStateEnum: ${state}`);
      }
      resolvePromise(promiseLikeHandle) {
        this.runtime.assertOwned(promiseLikeHandle);
        let vmResolveResult = Scope.withScope((scope) => {
          let vmPromise = scope.manage(this.getProp(this.global, "Promise")), vmPromiseResolve = scope.manage(this.getProp(vmPromise, "resolve"));
          return this.callFunction(vmPromiseResolve, vmPromise, promiseLikeHandle);
        });
        return vmResolveResult.error ? Promise.resolve(vmResolveResult) : new Promise((resolve) => {
          Scope.withScope((scope) => {
            let resolveHandle = scope.manage(this.newFunction("resolve", (value) => {
              resolve(this.success(value && value.dup()));
            })), rejectHandle = scope.manage(this.newFunction("reject", (error) => {
              resolve(this.fail(error && error.dup()));
            })), promiseHandle = scope.manage(vmResolveResult.value), promiseThenHandle = scope.manage(this.getProp(promiseHandle, "then"));
            this.callFunction(promiseThenHandle, promiseHandle, resolveHandle, rejectHandle).unwrap().dispose();
          });
        });
      }
      isEqual(a, b, equalityType = IsEqualOp.IsStrictlyEqual) {
        if (a === b) return true;
        this.runtime.assertOwned(a), this.runtime.assertOwned(b);
        let result = this.ffi.QTS_IsEqual(this.ctx.value, a.value, b.value, equalityType);
        if (result === -1) throw new QuickJSNotImplemented("WASM variant does not expose equality");
        return !!result;
      }
      eq(handle, other) {
        return this.isEqual(handle, other, IsEqualOp.IsStrictlyEqual);
      }
      sameValue(handle, other) {
        return this.isEqual(handle, other, IsEqualOp.IsSameValue);
      }
      sameValueZero(handle, other) {
        return this.isEqual(handle, other, IsEqualOp.IsSameValueZero);
      }
      getProp(handle, key) {
        this.runtime.assertOwned(handle);
        let ptr;
        return typeof key == "number" && key >= 0 ? ptr = this.ffi.QTS_GetPropNumber(this.ctx.value, handle.value, key) : ptr = this.borrowPropertyKey(key).consume((quickJSKey) => this.ffi.QTS_GetProp(this.ctx.value, handle.value, quickJSKey.value)), this.memory.heapValueHandle(ptr);
      }
      getLength(handle) {
        if (this.runtime.assertOwned(handle), !(this.ffi.QTS_GetLength(this.ctx.value, this.uint32Out.value.ptr, handle.value) < 0)) return this.uint32Out.value.typedArray[0];
      }
      getOwnPropertyNames(handle, options = { strings: true, numbersAsStrings: true }) {
        this.runtime.assertOwned(handle), handle.value;
        let flags = getOwnPropertyNamesOptionsToFlags(options);
        if (flags === 0) throw new QuickJSEmptyGetOwnPropertyNames("No options set, will return an empty array");
        return Scope.withScope((scope) => {
          let outPtr = scope.manage(this.memory.newMutablePointerArray(1)), errorPtr = this.ffi.QTS_GetOwnPropertyNames(this.ctx.value, outPtr.value.ptr, this.uint32Out.value.ptr, handle.value, flags);
          if (errorPtr) return this.fail(this.memory.heapValueHandle(errorPtr));
          let len = this.uint32Out.value.typedArray[0], ptr = outPtr.value.typedArray[0], pointerArray = new Uint32Array(this.module.HEAP8.buffer, ptr, len), handles = Array.from(pointerArray).map((ptr2) => this.memory.heapValueHandle(ptr2));
          return this.ffi.QTS_FreeVoidPointer(this.ctx.value, ptr), this.success(createDisposableArray(handles));
        });
      }
      getIterator(iterableHandle) {
        let SymbolIterator = this._SymbolIterator ?? (this._SymbolIterator = this.memory.manage(this.getWellKnownSymbol("iterator")));
        return Scope.withScope((scope) => {
          let methodHandle = scope.manage(this.getProp(iterableHandle, SymbolIterator)), iteratorCallResult = this.callFunction(methodHandle, iterableHandle);
          return iteratorCallResult.error ? iteratorCallResult : this.success(new QuickJSIterator(iteratorCallResult.value, this));
        });
      }
      setProp(handle, key, value) {
        this.runtime.assertOwned(handle), this.borrowPropertyKey(key).consume((quickJSKey) => this.ffi.QTS_SetProp(this.ctx.value, handle.value, quickJSKey.value, value.value));
      }
      defineProp(handle, key, descriptor) {
        this.runtime.assertOwned(handle), Scope.withScope((scope) => {
          let quickJSKey = scope.manage(this.borrowPropertyKey(key)), value = descriptor.value || this.undefined, configurable = !!descriptor.configurable, enumerable = !!descriptor.enumerable, hasValue = !!descriptor.value, get = descriptor.get ? scope.manage(this.newFunction(descriptor.get.name, descriptor.get)) : this.undefined, set = descriptor.set ? scope.manage(this.newFunction(descriptor.set.name, descriptor.set)) : this.undefined;
          this.ffi.QTS_DefineProp(this.ctx.value, handle.value, quickJSKey.value, value.value, get.value, set.value, configurable, enumerable, hasValue);
        });
      }
      callFunction(func, thisVal, ...restArgs) {
        this.runtime.assertOwned(func);
        let args, firstArg = restArgs[0];
        firstArg === void 0 || Array.isArray(firstArg) ? args = firstArg ?? [] : args = restArgs;
        let resultPtr = this.memory.toPointerArray(args).consume((argsArrayPtr) => this.ffi.QTS_Call(this.ctx.value, func.value, thisVal.value, args.length, argsArrayPtr.value)), errorPtr = this.ffi.QTS_ResolveException(this.ctx.value, resultPtr);
        return errorPtr ? (this.ffi.QTS_FreeValuePointer(this.ctx.value, resultPtr), this.fail(this.memory.heapValueHandle(errorPtr))) : this.success(this.memory.heapValueHandle(resultPtr));
      }
      callMethod(thisHandle, key, args = []) {
        return this.getProp(thisHandle, key).consume((func) => this.callFunction(func, thisHandle, args));
      }
      evalCode(code, filename = "eval.js", options) {
        let detectModule = options === void 0 ? 1 : 0, flags = evalOptionsToFlags(options), resultPtr = this.memory.newHeapCharPointer(code).consume((charHandle) => this.ffi.QTS_Eval(this.ctx.value, charHandle.value.ptr, charHandle.value.strlen, filename, detectModule, flags)), errorPtr = this.ffi.QTS_ResolveException(this.ctx.value, resultPtr);
        return errorPtr ? (this.ffi.QTS_FreeValuePointer(this.ctx.value, resultPtr), this.fail(this.memory.heapValueHandle(errorPtr))) : this.success(this.memory.heapValueHandle(resultPtr));
      }
      throw(error) {
        return this.errorToHandle(error).consume((handle) => this.ffi.QTS_Throw(this.ctx.value, handle.value));
      }
      borrowPropertyKey(key) {
        return typeof key == "number" ? this.newNumber(key) : typeof key == "string" ? this.newString(key) : new StaticLifetime(key.value, this.runtime);
      }
      getMemory(rt) {
        if (rt === this.rt.value) return this.memory;
        throw new Error("Private API. Cannot get memory from a different runtime");
      }
      dump(handle) {
        this.runtime.assertOwned(handle);
        let type = this.typeof(handle);
        if (type === "string") return this.getString(handle);
        if (type === "number") return this.getNumber(handle);
        if (type === "bigint") return this.getBigInt(handle);
        if (type === "undefined") return;
        if (type === "symbol") return this.getSymbol(handle);
        let asPromiseState = this.getPromiseState(handle);
        if (asPromiseState.type === "fulfilled" && !asPromiseState.notAPromise) return handle.dispose(), { type: asPromiseState.type, value: asPromiseState.value.consume(this.dump) };
        if (asPromiseState.type === "pending") return handle.dispose(), { type: asPromiseState.type };
        if (asPromiseState.type === "rejected") return handle.dispose(), { type: asPromiseState.type, error: asPromiseState.error.consume(this.dump) };
        let str = this.memory.consumeJSCharPointer(this.ffi.QTS_Dump(this.ctx.value, handle.value));
        try {
          return JSON.parse(str);
        } catch {
          return str;
        }
      }
      unwrapResult(result) {
        if (result.error) {
          let context = "context" in result.error ? result.error.context : this, cause = result.error.consume((error) => this.dump(error));
          if (cause && typeof cause == "object" && typeof cause.message == "string") {
            let { message, name, stack, ...rest } = cause, exception = new QuickJSUnwrapError(cause, context);
            typeof name == "string" && (exception.name = cause.name), exception.message = message;
            let hostStack = exception.stack;
            throw typeof stack == "string" && (exception.stack = `${name}: ${message}
${cause.stack}Host: ${hostStack}`), Object.assign(exception, rest), exception;
          }
          throw new QuickJSUnwrapError(cause);
        }
        return result.value;
      }
      [/* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom")]() {
        return this.alive ? `${this.constructor.name} { ctx: ${this.ctx.value} rt: ${this.rt.value} }` : `${this.constructor.name} { disposed }`;
      }
      getFunction(fn_id) {
        let fn = this.runtime.hostRefs.get(fn_id);
        if (typeof fn != "function") throw new Error(`Host reference ${fn_id} is not a function`);
        return fn;
      }
      errorToHandle(error) {
        return error instanceof Lifetime ? error : this.newError(error);
      }
      encodeBinaryJSON(handle) {
        let ptr = this.ffi.QTS_bjson_encode(this.ctx.value, handle.value);
        return this.memory.heapValueHandle(ptr);
      }
      decodeBinaryJSON(handle) {
        let ptr = this.ffi.QTS_bjson_decode(this.ctx.value, handle.value);
        return this.memory.heapValueHandle(ptr);
      }
      success(value) {
        return DisposableResult.success(value);
      }
      fail(error) {
        return DisposableResult.fail(error, (error2) => this.unwrapResult(error2));
      }
    };
    QuickJSRuntime = class extends UsingDisposable {
      constructor(args) {
        super();
        this.scope = new Scope();
        this.contextMap = /* @__PURE__ */ new Map();
        this.hostRefs = new HostRefMap();
        this._debugMode = false;
        this.cToHostCallbacks = { freeHostRef: (rt, host_ref_id) => {
          if (rt !== this.rt.value) throw new Error("Runtime pointer mismatch");
          this.hostRefs.delete(host_ref_id);
        }, shouldInterrupt: (rt) => {
          if (rt !== this.rt.value) throw new Error("QuickJSContext instance received C -> JS interrupt with mismatched rt");
          let fn = this.interruptHandler;
          if (!fn) throw new Error("QuickJSContext had no interrupt handler");
          return fn(this) ? 1 : 0;
        }, loadModuleSource: maybeAsyncFn(this, function* (awaited, rt, ctx, moduleName) {
          let moduleLoader = this.moduleLoader;
          if (!moduleLoader) throw new Error("Runtime has no module loader");
          if (rt !== this.rt.value) throw new Error("Runtime pointer mismatch");
          let context = this.contextMap.get(ctx) ?? this.newContext({ contextPointer: ctx });
          try {
            let result = yield* awaited(moduleLoader(moduleName, context));
            if (typeof result == "object" && "error" in result && result.error) throw this.debugLog("cToHostLoadModule: loader returned error", result.error), result.error;
            let moduleSource = typeof result == "string" ? result : "value" in result ? result.value : result;
            return this.memory.newHeapCharPointer(moduleSource).value.ptr;
          } catch (error) {
            return this.debugLog("cToHostLoadModule: caught error", error), context.throw(error), 0;
          }
        }), normalizeModule: maybeAsyncFn(this, function* (awaited, rt, ctx, baseModuleName, moduleNameRequest) {
          let moduleNormalizer = this.moduleNormalizer;
          if (!moduleNormalizer) throw new Error("Runtime has no module normalizer");
          if (rt !== this.rt.value) throw new Error("Runtime pointer mismatch");
          let context = this.contextMap.get(ctx) ?? this.newContext({ contextPointer: ctx });
          try {
            let result = yield* awaited(moduleNormalizer(baseModuleName, moduleNameRequest, context));
            if (typeof result == "object" && "error" in result && result.error) throw this.debugLog("cToHostNormalizeModule: normalizer returned error", result.error), result.error;
            let name = typeof result == "string" ? result : result.value;
            return context.getMemory(this.rt.value).newHeapCharPointer(name).value.ptr;
          } catch (error) {
            return this.debugLog("normalizeModule: caught error", error), context.throw(error), 0;
          }
        }) };
        args.ownedLifetimes?.forEach((lifetime) => this.scope.manage(lifetime)), this.module = args.module, this.memory = new ModuleMemory(this.module), this.ffi = args.ffi, this.rt = args.rt, this.callbacks = args.callbacks, this.scope.manage(this.rt), this.callbacks.setRuntimeCallbacks(this.rt.value, this.cToHostCallbacks), this.executePendingJobs = this.executePendingJobs.bind(this), QTS_DEBUG && this.setDebugMode(true);
      }
      get alive() {
        return this.scope.alive;
      }
      dispose() {
        return this.scope.dispose();
      }
      newContext(options = {}) {
        let intrinsics = intrinsicsToFlags(options.intrinsics), ctx = new Lifetime(options.contextPointer || this.ffi.QTS_NewContext(this.rt.value, intrinsics), void 0, (ctx_ptr) => {
          this.contextMap.delete(ctx_ptr), this.callbacks.deleteContext(ctx_ptr), this.ffi.QTS_FreeContext(ctx_ptr);
        }), context = new QuickJSContext({ module: this.module, ctx, ffi: this.ffi, rt: this.rt, ownedLifetimes: options.ownedLifetimes, runtime: this, callbacks: this.callbacks });
        return this.contextMap.set(ctx.value, context), context;
      }
      setModuleLoader(moduleLoader, moduleNormalizer) {
        this.moduleLoader = moduleLoader, this.moduleNormalizer = moduleNormalizer, this.ffi.QTS_RuntimeEnableModuleLoader(this.rt.value, this.moduleNormalizer ? 1 : 0);
      }
      removeModuleLoader() {
        this.moduleLoader = void 0, this.ffi.QTS_RuntimeDisableModuleLoader(this.rt.value);
      }
      hasPendingJob() {
        return !!this.ffi.QTS_IsJobPending(this.rt.value);
      }
      setInterruptHandler(cb) {
        let prevInterruptHandler = this.interruptHandler;
        this.interruptHandler = cb, prevInterruptHandler || this.ffi.QTS_RuntimeEnableInterruptHandler(this.rt.value);
      }
      removeInterruptHandler() {
        this.interruptHandler && (this.ffi.QTS_RuntimeDisableInterruptHandler(this.rt.value), this.interruptHandler = void 0);
      }
      executePendingJobs(maxJobsToExecute = -1) {
        let ctxPtrOut = this.memory.newMutablePointerArray(1), valuePtr = this.ffi.QTS_ExecutePendingJob(this.rt.value, maxJobsToExecute ?? -1, ctxPtrOut.value.ptr), ctxPtr = ctxPtrOut.value.typedArray[0];
        if (ctxPtrOut.dispose(), ctxPtr === 0) return this.ffi.QTS_FreeValuePointerRuntime(this.rt.value, valuePtr), DisposableResult.success(0);
        let context = this.contextMap.get(ctxPtr) ?? this.newContext({ contextPointer: ctxPtr }), resultValue = context.getMemory(this.rt.value).heapValueHandle(valuePtr);
        if (context.typeof(resultValue) === "number") {
          let executedJobs = context.getNumber(resultValue);
          return resultValue.dispose(), DisposableResult.success(executedJobs);
        } else {
          let error = Object.assign(resultValue, { context });
          return DisposableResult.fail(error, (error2) => context.unwrapResult(error2));
        }
      }
      setMemoryLimit(limitBytes) {
        if (limitBytes < 0 && limitBytes !== -1) throw new Error("Cannot set memory limit to negative number. To unset, pass -1");
        this.ffi.QTS_RuntimeSetMemoryLimit(this.rt.value, limitBytes);
      }
      computeMemoryUsage() {
        let serviceContextMemory = this.getSystemContext().getMemory(this.rt.value);
        return serviceContextMemory.heapValueHandle(this.ffi.QTS_RuntimeComputeMemoryUsage(this.rt.value, serviceContextMemory.ctx.value));
      }
      dumpMemoryUsage() {
        return this.memory.consumeHeapCharPointer(this.ffi.QTS_RuntimeDumpMemoryUsage(this.rt.value));
      }
      setMaxStackSize(stackSize) {
        if (stackSize < 0) throw new Error("Cannot set memory limit to negative number. To unset, pass 0.");
        this.ffi.QTS_RuntimeSetMaxStackSize(this.rt.value, stackSize);
      }
      assertOwned(handle) {
        if (handle.owner && handle.owner.rt !== this.rt) throw new QuickJSWrongOwner(`Handle is not owned by this runtime: ${handle.owner.rt.value} != ${this.rt.value}`);
      }
      setDebugMode(enabled) {
        this._debugMode = enabled, this.ffi.DEBUG && this.rt.alive && this.ffi.QTS_SetDebugLogEnabled(this.rt.value, enabled ? 1 : 0);
      }
      isDebugMode() {
        return this._debugMode;
      }
      debugLog(...msg) {
        this._debugMode && console.log("quickjs-emscripten:", ...msg);
      }
      [/* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom")]() {
        return this.alive ? `${this.constructor.name} { rt: ${this.rt.value} }` : `${this.constructor.name} { disposed }`;
      }
      getSystemContext() {
        return this.context || (this.context = this.scope.manage(this.newContext())), this.context;
      }
    };
    QuickJSEmscriptenModuleCallbacks = class {
      constructor(args) {
        this.freeHostRef = args.freeHostRef, this.callFunction = args.callFunction, this.shouldInterrupt = args.shouldInterrupt, this.loadModuleSource = args.loadModuleSource, this.normalizeModule = args.normalizeModule;
      }
    };
    QuickJSModuleCallbacks = class {
      constructor(module) {
        this.contextCallbacks = /* @__PURE__ */ new Map();
        this.runtimeCallbacks = /* @__PURE__ */ new Map();
        this.suspendedCount = 0;
        this.cToHostCallbacks = new QuickJSEmscriptenModuleCallbacks({ freeHostRef: (_asyncify, rt, host_ref_id) => {
          let runtimeCallbacks = this.runtimeCallbacks.get(rt);
          if (!runtimeCallbacks) throw new Error(`QuickJSRuntime(rt = ${rt}) not found when trying to free HostRef(id = ${host_ref_id})`);
          runtimeCallbacks.freeHostRef(rt, host_ref_id);
        }, callFunction: (asyncify, ctx, this_ptr, argc, argv, fn_id) => this.handleAsyncify(asyncify, () => {
          try {
            let vm = this.contextCallbacks.get(ctx);
            if (!vm) throw new Error(`QuickJSContext(ctx = ${ctx}) not found for C function call "${fn_id}"`);
            return vm.callFunction(ctx, this_ptr, argc, argv, fn_id);
          } catch (error) {
            return console.error("[C to host error: returning null]", error), 0;
          }
        }), shouldInterrupt: (asyncify, rt) => this.handleAsyncify(asyncify, () => {
          try {
            let vm = this.runtimeCallbacks.get(rt);
            if (!vm) throw new Error(`QuickJSRuntime(rt = ${rt}) not found for C interrupt`);
            return vm.shouldInterrupt(rt);
          } catch (error) {
            return console.error("[C to host interrupt: returning error]", error), 1;
          }
        }), loadModuleSource: (asyncify, rt, ctx, moduleName) => this.handleAsyncify(asyncify, () => {
          try {
            let runtimeCallbacks = this.runtimeCallbacks.get(rt);
            if (!runtimeCallbacks) throw new Error(`QuickJSRuntime(rt = ${rt}) not found for C module loader`);
            let loadModule = runtimeCallbacks.loadModuleSource;
            if (!loadModule) throw new Error(`QuickJSRuntime(rt = ${rt}) does not support module loading`);
            return loadModule(rt, ctx, moduleName);
          } catch (error) {
            return console.error("[C to host module loader error: returning null]", error), 0;
          }
        }), normalizeModule: (asyncify, rt, ctx, moduleBaseName, moduleName) => this.handleAsyncify(asyncify, () => {
          try {
            let runtimeCallbacks = this.runtimeCallbacks.get(rt);
            if (!runtimeCallbacks) throw new Error(`QuickJSRuntime(rt = ${rt}) not found for C module loader`);
            let normalizeModule = runtimeCallbacks.normalizeModule;
            if (!normalizeModule) throw new Error(`QuickJSRuntime(rt = ${rt}) does not support module loading`);
            return normalizeModule(rt, ctx, moduleBaseName, moduleName);
          } catch (error) {
            return console.error("[C to host module loader error: returning null]", error), 0;
          }
        }) });
        this.module = module, this.module.callbacks = this.cToHostCallbacks;
      }
      setRuntimeCallbacks(rt, callbacks) {
        this.runtimeCallbacks.set(rt, callbacks);
      }
      deleteRuntime(rt) {
        this.runtimeCallbacks.delete(rt);
      }
      setContextCallbacks(ctx, callbacks) {
        this.contextCallbacks.set(ctx, callbacks);
      }
      deleteContext(ctx) {
        this.contextCallbacks.delete(ctx);
      }
      handleAsyncify(asyncify, fn) {
        if (asyncify) return asyncify.handleSleep((done) => {
          try {
            let result = fn();
            if (!(result instanceof Promise)) {
              debugLog("asyncify.handleSleep: not suspending:", result), done(result);
              return;
            }
            if (this.suspended) throw new QuickJSAsyncifyError(`Already suspended at: ${this.suspended.stack}
Attempted to suspend at:`);
            this.suspended = new QuickJSAsyncifySuspended(`(${this.suspendedCount++})`), debugLog("asyncify.handleSleep: suspending:", this.suspended), result.then((resolvedResult) => {
              this.suspended = void 0, debugLog("asyncify.handleSleep: resolved:", resolvedResult), done(resolvedResult);
            }, (error) => {
              debugLog("asyncify.handleSleep: rejected:", error), console.error("QuickJS: cannot handle error in suspended function", error), this.suspended = void 0;
            });
          } catch (error) {
            throw debugLog("asyncify.handleSleep: error:", error), this.suspended = void 0, error;
          }
        });
        let value = fn();
        if (value instanceof Promise) throw new Error("Promise return value not supported in non-asyncify context.");
        return value;
      }
    };
    QuickJSWASMModule = class {
      constructor(module, ffi) {
        this.module = module, this.ffi = ffi, this.callbacks = new QuickJSModuleCallbacks(module);
      }
      newRuntime(options = {}) {
        let rt = new Lifetime(this.ffi.QTS_NewRuntime(), void 0, (rt_ptr) => {
          this.ffi.QTS_FreeRuntime(rt_ptr), this.callbacks.deleteRuntime(rt_ptr);
        }), runtime = new QuickJSRuntime({ module: this.module, callbacks: this.callbacks, ffi: this.ffi, rt });
        return applyBaseRuntimeOptions(runtime, options), options.moduleLoader && runtime.setModuleLoader(options.moduleLoader), runtime;
      }
      newContext(options = {}) {
        let runtime = this.newRuntime(), context = runtime.newContext({ ...options, ownedLifetimes: concat(runtime, options.ownedLifetimes) });
        return runtime.context = context, context;
      }
      evalCode(code, options = {}) {
        return Scope.withScope((scope) => {
          let vm = scope.manage(this.newContext());
          applyModuleEvalRuntimeOptions(vm.runtime, options);
          let result = vm.evalCode(code, "eval.js");
          if (options.memoryLimitBytes !== void 0 && vm.runtime.setMemoryLimit(-1), result.error) throw vm.dump(scope.manage(result.error));
          return vm.dump(scope.manage(result.value));
        });
      }
      getWasmMemory() {
        let memory = this.module.quickjsEmscriptenInit?.(() => {
        })?.getWasmMemory?.();
        if (!memory) throw new Error("Variant does not support getting WebAssembly.Memory");
        return memory;
      }
      getFFI() {
        return this.ffi;
      }
    };
  }
});

// node_modules/quickjs-emscripten-core/dist/module-ES6BEMUI.mjs
var module_ES6BEMUI_exports = {};
__export(module_ES6BEMUI_exports, {
  QuickJSModuleCallbacks: () => QuickJSModuleCallbacks,
  QuickJSWASMModule: () => QuickJSWASMModule,
  applyBaseRuntimeOptions: () => applyBaseRuntimeOptions,
  applyModuleEvalRuntimeOptions: () => applyModuleEvalRuntimeOptions
});
var init_module_ES6BEMUI = __esm({
  "node_modules/quickjs-emscripten-core/dist/module-ES6BEMUI.mjs"() {
    init_chunk_V2S4ZYJR();
  }
});

// core/sandbox/sandbox-worker.ts
import { parentPort, workerData } from "node:worker_threads";

// core/errors.ts
var DistillError = class extends Error {
  code;
  constructor(code, message, options) {
    super(message, options);
    this.name = "DistillError";
    this.code = code;
  }
};
function errorMessage(err) {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

// core/sandbox/quickjs-engine.ts
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// node_modules/@jitl/quickjs-wasmfile-release-sync/dist/index.mjs
var variant = { type: "sync", importFFI: () => Promise.resolve().then(() => (init_ffi(), ffi_exports)).then((mod) => mod.QuickJSFFI), importModuleLoader: () => Promise.resolve().then(() => (init_emscripten_module(), emscripten_module_exports)).then((mod) => mod.default) };
var src_default = variant;

// node_modules/quickjs-emscripten-core/dist/index.mjs
init_chunk_V2S4ZYJR();
init_dist();
async function newQuickJSWASMModuleFromVariant(variantOrPromise) {
  let variant3 = smartUnwrap(await variantOrPromise), [wasmModuleLoader, QuickJSFFI2, { QuickJSWASMModule: QuickJSWASMModule2 }] = await Promise.all([variant3.importModuleLoader().then(smartUnwrap), variant3.importFFI(), Promise.resolve().then(() => (init_module_ES6BEMUI(), module_ES6BEMUI_exports)).then(smartUnwrap)]), wasmModule = await wasmModuleLoader();
  wasmModule.type = "sync";
  let ffi = new QuickJSFFI2(wasmModule);
  return new QuickJSWASMModule2(wasmModule, ffi);
}
function smartUnwrap(val) {
  return val && "default" in val && val.default ? val.default && "default" in val.default && val.default.default ? val.default.default : val.default : val;
}
function newVariant(baseVariant, options) {
  return { ...baseVariant, async importModuleLoader() {
    let moduleLoader = smartUnwrap(await baseVariant.importModuleLoader());
    return async function() {
      let moduleLoaderArg = options.emscriptenModule ? { ...options.emscriptenModule } : {}, log = options.log ?? ((...args) => debugLog("newVariant moduleLoader:", ...args)), tapValue = (message, val) => (log(...message, val), val), force = (val) => typeof val == "function" ? val() : val;
      (options.wasmLocation || options.wasmSourceMapLocation || options.locateFile) && (moduleLoaderArg.locateFile = (fileName, relativeTo) => {
        let args = { fileName, relativeTo };
        if (fileName.endsWith(".wasm") && options.wasmLocation !== void 0) return tapValue(["locateFile .wasm: provide wasmLocation", args], options.wasmLocation);
        if (fileName.endsWith(".map")) {
          if (options.wasmSourceMapLocation !== void 0) return tapValue(["locateFile .map: provide wasmSourceMapLocation", args], options.wasmSourceMapLocation);
          if (options.wasmLocation && !options.locateFile) return tapValue(["locateFile .map: infer from wasmLocation", args], options.wasmLocation + ".map");
        }
        return options.locateFile ? tapValue(["locateFile: use provided fn", args], options.locateFile(fileName, relativeTo)) : tapValue(["locateFile: unhandled, passthrough", args], fileName);
      }), options.wasmBinary && (moduleLoaderArg.wasmBinary = await force(options.wasmBinary)), options.wasmMemory && (moduleLoaderArg.wasmMemory = await force(options.wasmMemory));
      let optionsWasmModule = options.wasmModule, modulePromise;
      optionsWasmModule && (moduleLoaderArg.instantiateWasm = async (imports, onSuccess) => {
        modulePromise ?? (modulePromise = Promise.resolve(force(optionsWasmModule)));
        let wasmModule = await modulePromise;
        if (!wasmModule) throw new QuickJSEmscriptenModuleError(`options.wasmModule returned ${String(wasmModule)}`);
        let instance = await WebAssembly.instantiate(wasmModule, imports);
        return onSuccess(instance), instance.exports;
      }), moduleLoaderArg.monitorRunDependencies = (left) => {
        log("monitorRunDependencies:", left);
      }, moduleLoaderArg.quickjsEmscriptenInit = () => newMockExtensions(log);
      let resultPromise = moduleLoader(moduleLoaderArg), extensions = moduleLoaderArg.quickjsEmscriptenInit?.(log);
      if (optionsWasmModule && extensions?.receiveWasmOffsetConverter && !extensions.existingWasmOffsetConverter) {
        let wasmBinary = await force(options.wasmBinary) ?? new ArrayBuffer(0);
        modulePromise ?? (modulePromise = Promise.resolve(force(optionsWasmModule)));
        let wasmModule = await modulePromise;
        if (!wasmModule) throw new QuickJSEmscriptenModuleError(`options.wasmModule returned ${String(wasmModule)}`);
        extensions.receiveWasmOffsetConverter(wasmBinary, wasmModule);
      }
      if (extensions?.receiveSourceMapJSON) {
        let loadedSourceMapData = await force(options.wasmSourceMapData);
        typeof loadedSourceMapData == "string" ? extensions.receiveSourceMapJSON(JSON.parse(loadedSourceMapData)) : loadedSourceMapData ? extensions.receiveSourceMapJSON(loadedSourceMapData) : extensions.receiveSourceMapJSON({ version: 3, names: [], sources: [], mappings: "" });
      }
      return resultPromise;
    };
  } };
}
function newMockExtensions(log) {
  let mockMessage = "mock called, emscripten module may not be initialized yet";
  return { mock: true, removeRunDependency(name) {
    log(`${mockMessage}: removeRunDependency called:`, name);
  }, receiveSourceMapJSON(data2) {
    log(`${mockMessage}: receiveSourceMapJSON called:`, data2);
  }, WasmOffsetConverter: void 0, receiveWasmOffsetConverter(bytes, mod) {
    log(`${mockMessage}: receiveWasmOffsetConverter called:`, bytes, mod);
  } };
}

// core/sandbox/quickjs-engine.ts
var variant2 = src_default;
var PAGE_BYTES = 65536;
var ENGINE_BASE_MB = 16;
var WASM_FILE = "quickjs.wasm";
var wasm = globalThis.WebAssembly;
var compiled = null;
function engineWasmPath() {
  const beside = fileURLToPath(new URL(`./${WASM_FILE}`, import.meta.url));
  if (existsSync(beside)) return beside;
  try {
    return createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
  } catch (err) {
    throw new DistillError(
      "USAGE",
      `the sandbox engine (${WASM_FILE}) is missing: reinstall tooldistill, or keep ${WASM_FILE} next to a bundle`,
      { cause: err }
    );
  }
}
function compiledModule() {
  if (compiled) return compiled;
  const path = engineWasmPath();
  try {
    compiled = new wasm.Module(readFileSync(path));
    return compiled;
  } catch (err) {
    throw new DistillError("USAGE", `cannot load the sandbox engine from ${path}: ${errorMessage(err)}`, {
      cause: err
    });
  }
}
function useEngineModule(module) {
  compiled = module;
}
var INITIAL_PAGES = ENGINE_BASE_MB * 1024 * 1024 / PAGE_BYTES;
var spareMemories = /* @__PURE__ */ new Map();
var SPARE_MEMORIES = 2;
var slots = /* @__PURE__ */ new WeakMap();
function takeMemory(memoryMb) {
  const maximumPages = Math.max(ENGINE_BASE_MB, Math.ceil(memoryMb)) * (1024 * 1024 / PAGE_BYTES);
  const spare = spareMemories.get(maximumPages)?.pop();
  if (spare !== void 0) {
    spare.refused = false;
    return spare;
  }
  const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: maximumPages });
  const slot = { memory, maximumPages, refused: false };
  const grow = memory.grow.bind(memory);
  memory.grow = (delta) => {
    try {
      const pages = grow(delta);
      slot.refused = false;
      return pages;
    } catch (err) {
      slot.refused = true;
      throw err;
    }
  };
  return slot;
}
async function newEngineInstance(memoryMb) {
  const slot = takeMemory(memoryMb);
  const quiet = () => {
  };
  const output = { print: quiet, printErr: quiet };
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variant2, {
      // The package types these with the DOM library's WebAssembly classes; they are those objects.
      wasmModule: compiledModule(),
      wasmMemory: slot.memory,
      emscriptenModule: output
    })
  );
  const instance = { quickjs, memoryMb, growthRefused: () => slot.refused };
  slots.set(instance, slot);
  return instance;
}
function dropEngineInstance(instance) {
  const slot = slots.get(instance);
  slots.delete(instance);
  if (slot === void 0 || slot.memory.buffer.byteLength !== INITIAL_PAGES * PAGE_BYTES) return;
  const spares = spareMemories.get(slot.maximumPages) ?? [];
  if (spares.length >= SPARE_MEMORIES) return;
  if (!keepUnzeroed) new Uint8Array(slot.memory.buffer).fill(0);
  spares.push(slot);
  spareMemories.set(slot.maximumPages, spares);
}
var keepUnzeroed = false;

// core/util/canonical.ts
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function dangerousKeyPath(value) {
  const stack = [{ value, path: "" }];
  const seen = /* @__PURE__ */ new Set();
  for (let next2 = stack.pop(); next2 !== void 0; next2 = stack.pop()) {
    const { value: v, path } = next2;
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      const here = path === "" ? key : `${path}.${key}`;
      const child = v[key];
      if (key === "__proto__") return here;
      if (key === "constructor" && isPlainObject(child) && Object.hasOwn(child, "prototype")) {
        return `${here}.prototype`;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      stack.push({ value: v[key], path: path === "" ? key : `${path}.${key}` });
    }
  }
  return null;
}
function dangerousKeyProblem(args) {
  const path = dangerousKeyPath(args);
  if (path === null) return null;
  return `the arguments have the key '${path.slice(0, 200)}', which tooldistill never sends (it can reach a prototype in the code that receives it): pass the data under another key`;
}

// core/util/text.ts
function clip(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\u2026 (${text.length - max} more characters)`;
}

// core/sandbox/sandbox-guest.ts
var NO_CLOCK = "a distilled tool has no clock: take the time as an input or from a base tool";
var ABSENT_GLOBALS = Object.freeze({
  setTimeout: "a distilled tool has no timers",
  setInterval: "a distilled tool has no timers",
  setImmediate: "a distilled tool has no timers",
  clearTimeout: "a distilled tool has no timers",
  clearInterval: "a distilled tool has no timers",
  queueMicrotask: "a distilled tool has no timers",
  performance: NO_CLOCK,
  eval: "a distilled tool cannot generate code from strings",
  Function: "a distilled tool cannot generate code from strings",
  WebAssembly: "a distilled tool cannot load WebAssembly",
  SharedArrayBuffer: "a distilled tool has no shared memory",
  Atomics: "a distilled tool has no shared memory",
  WeakRef: "a distilled tool cannot observe garbage collection",
  FinalizationRegistry: "a distilled tool cannot observe garbage collection",
  Proxy: "a distilled tool has no Proxy"
});
var ABSENT_MEMBERS = Object.freeze({
  "Math.random": "a distilled tool has no randomness: take random values as an input or from a base tool",
  "Date.now": NO_CLOCK
});
var OUTCOME_TAG = "!outcome:";
var LIBRARY_PARAM = "__tooldistill";
var BODY_PREFIX = `(function (${LIBRARY_PARAM}) {"use strict";`;
var TOOL_FILE = "tool.ts";
var PRELUDE = `(function (hostCall, inCheck, hostNotApplicable) {
  "use strict";
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const StringCtor = String;
  const TypeErrorCtor = TypeError;
  const construct = Reflect.construct;
  const apply = Reflect.apply;
  const hasOwn = Object.hasOwn;
  const then = Promise.prototype.then;
  const startsWith = String.prototype.startsWith;
  const slice = String.prototype.slice;
  const ErrorCtor = Error;
  const ownDescriptor = Object.getOwnPropertyDescriptor;

  // No code generation from strings: eval goes, and so does every Function constructor reachable from a
  // function's prototype chain (plain, async, generator, async generator).
  const refuse = function () {
    throw new EvalError("a distilled tool cannot generate code from strings");
  };
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    defineProperty(getPrototypeOf(fn), "constructor", { value: refuse, writable: false, configurable: false });
  }
  for (const name of ["eval", "Function", "WeakRef", "FinalizationRegistry", "SharedArrayBuffer", "Atomics"]) {
    delete G[name];
  }
  delete Math.random;

  // Date without a clock: every use that would read the time throws; parsing and formatting stay.
  const RealDate = Date;
  const noClock = () => new TypeErrorCtor(${JSON.stringify(NO_CLOCK)});
  const ClocklessDate = function Date(...args) {
    if (new.target === undefined || args.length === 0) throw noClock();
    return construct(RealDate, args, new.target);
  };
  defineProperty(ClocklessDate, "prototype", { value: RealDate.prototype, writable: false });
  defineProperty(ClocklessDate, "parse", { value: RealDate.parse, writable: true, configurable: true });
  defineProperty(ClocklessDate, "UTC", { value: RealDate.UTC, writable: true, configurable: true });
  defineProperty(ClocklessDate, "now", {
    value: function now() {
      throw noClock();
    },
    writable: true,
    configurable: true,
  });
  defineProperty(RealDate.prototype, "constructor", { value: ClocklessDate, writable: true, configurable: true });
  defineProperty(G, "Date", { value: ClocklessDate, writable: true, configurable: true });

  const call = inCheck
    ? function call() {
        throw new TypeErrorCtor("call() is not available in check(): check only looks at the result");
      }
    : function call(name, args, outcomes) {
        // The engine's own stack, taken here with the Error captured above and read as an own data property
        // (nothing the tool changed on Error or its prototype runs): the host finds the call's site in it, and
        // judges there whether the site declared the outcome a base call answered (the third argument).
        const at = ownDescriptor(new ErrorCtor(), "stack");
        // Name and arguments cross as JSON text: a C string would end at a NUL inside a name.
        const answer = hostCall(
          typeof name === "string" ? stringify(name) : undefined,
          stringify(args === undefined ? {} : args),
          at !== undefined && typeof at.value === "string" ? at.value : undefined,
        );
        // The handlers stay here: the host only says which declared outcome its base call answered.
        return apply(then, answer, [(value) => (value instanceof Outcome ? handle(outcomes, value.name) : value)]);
      };
  // The signal that a call's site declared the outcome its base call answered; only parse below makes one.
  function Outcome(name) {
    this.name = name;
  }
  function handle(outcomes, name) {
    const handler = outcomes !== null && typeof outcomes === "object" && hasOwn(outcomes, name) ? outcomes[name] : undefined;
    if (typeof handler !== "function") throw new TypeErrorCtor("no handler for the declared outcome '" + name + "'");
    return handler();
  }
  // The host records the outcome before the throw, which only unwinds the tool's code: whatever the code does
  // next (a caught throw, a returned value, another call) the run has ended as not applicable.
  const notApplicable = inCheck
    ? function notApplicable() {
        throw new TypeErrorCtor("notApplicable() is not available in check(): check only looks at the result");
      }
    : function notApplicable(reason) {
        hostNotApplicable(stringify(typeof reason === "string" ? reason : StringCtor(reason)));
        throw new TypeErrorCtor("notApplicable: the tool ended on purpose");
      };
  const lib = freeze({ distilledTool: (definition) => definition, call, notApplicable });

  // The host reads strings only; "" separates the parts of one (a C string would stop at a NUL).
  function describe(error) {
    let text;
    if (error !== null && typeof error === "object" && typeof error.message === "string") {
      const name = typeof error.name === "string" ? error.name : "Error";
      text = name === "Error" ? error.message : name + ": " + error.message;
    } else {
      text = StringCtor(error);
    }
    const stack = error !== null && typeof error === "object" && typeof error.stack === "string" ? error.stack : "";
    return text + "" + stack;
  }

  return freeze({
    // A call's answer: its result's JSON, or the tag of a declared outcome (never JSON) that runs the handler.
    parse(text) {
      const tag = ${JSON.stringify(OUTCOME_TAG)};
      return apply(startsWith, text, [tag]) ? new Outcome(apply(slice, text, [tag.length])) : parse(text);
    },
    describe,
    define(factory) {
      return factory(lib);
    },
    kind(definition) {
      if (definition === null || typeof definition !== "object") return "not-object";
      if (typeof definition.run !== "function") return "no-run";
      const check = definition.check;
      if (check !== undefined && typeof check !== "function") return "bad-check";
      return check === undefined ? "no-check" : "ok";
    },
    // "R" and the result's JSON, or "U" and why it has none.
    async run(definition, inputJson) {
      const result = await definition.run(parse(inputJson));
      let json;
      try {
        json = stringify(result);
      } catch (error) {
        return "U" + describe(error);
      }
      return "R" + (json === undefined ? "null" : json);
    },
    // "P" when it held, "A" when it answered with a promise, "F" and what it returned otherwise.
    check(definition, resultJson) {
      const verdict = definition.check(parse(resultJson));
      if (verdict !== null && (typeof verdict === "object" || typeof verdict === "function")) {
        if (typeof verdict.then === "function") return "A";
      }
      if (verdict) return "P";
      return "F" + (typeof verdict === "string" ? stringify(verdict) : StringCtor(verdict));
    },
  });
})`;

// core/sandbox/sandbox-failures.ts
var MAX_NAME_CHARS = 128;
var MAX_ERROR_CHARS = 1e3;
var SEPARATOR = "";
var TOOL_LINE = new RegExp(`\\(${TOOL_FILE.replace(".", "\\.")}:(\\d+)`);
function memoryFailure(limits) {
  return {
    kind: "memory",
    cause: "tool",
    message: `the tool used more than ${limits.memoryMb} MB of memory and was stopped`
  };
}
function engineFailure(err, growthRefused, limits) {
  if (growthRefused) return memoryFailure(limits);
  if (err instanceof RangeError) {
    return {
      kind: "stack",
      cause: "tool",
      message: "the tool's code nested too deeply (the engine's stack is exhausted) and was stopped"
    };
  }
  return {
    kind: "crashed",
    cause: "tool",
    message: `the engine stopped running the tool's code: ${clip(errorMessage(err), MAX_ERROR_CHARS)}`
  };
}
function guestFailure(text, prefix, kind) {
  if (text.startsWith("InternalError: stack overflow") || text.startsWith("SyntaxError: stack overflow")) {
    return {
      kind: "stack",
      cause: "tool",
      message: "the tool's code nested too deeply (the engine's stack limit) and was stopped"
    };
  }
  return { kind, cause: "tool", message: prefix + text };
}
function describedError(described) {
  const [text = "", stack = ""] = described.split(SEPARATOR);
  const line = TOOL_LINE.exec(stack)?.[1];
  return clip(text, MAX_ERROR_CHARS) + (line ? ` (line ${line})` : "");
}
function unknownFailure() {
  return { kind: "engine", cause: "host", message: "the run ended without an outcome" };
}
function codeError(message) {
  return { kind: "code_error", cause: "tool", message };
}
function readResult(tagged, maxBytes) {
  if (tagged.startsWith("U")) {
    return codeError(`the tool's result is not JSON-serialisable: ${describedError(tagged.slice(1))}`);
  }
  const json = tagged.slice(1);
  const bytes = Buffer.byteLength(json);
  if (bytes > maxBytes) {
    return {
      kind: "message_limit",
      cause: "tool",
      message: `the tool's result is ${bytes} bytes, more than the ${maxBytes}-byte limit`
    };
  }
  try {
    return { result: JSON.parse(json) };
  } catch (err) {
    return codeError(`the tool's result is not JSON: ${errorMessage(err)}`);
  }
}
function badDefinition(kind) {
  const message = kind === "no-run" ? "the tool has no run function" : kind === "bad-check" ? "the tool's check must be a function" : "the module's default export must be distilledTool({ name, description, inputSchema, run, check? })";
  return { kind: "bad_module", cause: "tool", message };
}
function checkRefused(verdict) {
  const message = verdict === "A" ? "check(result) returned a promise: check must answer at once (not async, no await)" : `check(result) returned ${clip(verdict?.slice(1) ?? "nothing", MAX_NAME_CHARS)}`;
  return { kind: "check_failed", cause: "tool", message };
}

// core/sandbox/sandbox-calls.ts
var CallGate = class {
  /** Every call asked for, in order, with its outcome: the run's record. */
  calls = [];
  #limits;
  #allow;
  #sites;
  constructor(limits, req) {
    this.#limits = limits;
    this.#allow = new Set(req.allow);
    this.#sites = req.sites;
  }
  /**
   * One call the code asked for, from the JSON texts the guest handed over (null: not a string) and the id of
   * the call site the host found in the caller's stack (null: none it could trust). Returns the admitted call, or
   * the failure that stops the run (the call is recorded either way).
   */
  admit(nameJson, argsJson, site) {
    const step = this.calls.length + 1;
    const rawName = nameJson === null ? null : parseString(nameJson);
    if (rawName === null) {
      return { kind: "code_error", cause: "tool", message: `call ${step}: the tool name must be a string` };
    }
    const name = clip(rawName, MAX_NAME_CHARS);
    const entry = { tool: name, args: {}, ok: false };
    const bytes = argsJson === null ? 0 : Buffer.byteLength(argsJson);
    const max = this.#limits.maxMessageBytes;
    const args = argsJson === null || bytes > max ? null : parsePlainObject(argsJson);
    if (args !== null) entry.args = args;
    const refuse = (failure, error) => {
      entry.error = error;
      this.calls.push(entry);
      return { ...failure, step, tool: name };
    };
    if (this.#sites !== void 0) {
      const known = site !== null && Number.isInteger(site) ? this.#sites[site - 1] : void 0;
      if (known === void 0 || known.id !== site || known.tool !== null && known.tool !== rawName) {
        const message = `call ${step} to '${name}' did not come from a call site of the tool's code: call base tools directly: call("<base tool>", {...})`;
        return refuse(
          { kind: "code_error", cause: "tool", message },
          "not run: no call site of the code made it"
        );
      }
      entry.site = known.id;
    }
    if (step > this.#limits.maxCalls) {
      const message = `the tool made more than ${this.#limits.maxCalls} base calls and was stopped`;
      return refuse(
        { kind: "call_limit", cause: "tool", message },
        `not run: more than ${this.#limits.maxCalls} base calls`
      );
    }
    if (!this.#allow.has(rawName)) {
      const allowed = [...this.#allow].map((t) => `'${t}'`).join(", ") || "none";
      const message = `call ${step} to '${name}' is not allowed: this tool may call only ${allowed}`;
      return refuse(
        { kind: "not_allowed", cause: "tool", message },
        `not allowed: this tool may call only ${allowed}`
      );
    }
    if (bytes > max) {
      const message = `the arguments of call ${step} to '${name}' are ${bytes} bytes, more than the ${max}-byte limit`;
      return refuse(
        { kind: "message_limit", cause: "tool", message },
        `not run: its arguments are ${bytes} bytes, more than the ${max}-byte limit`
      );
    }
    if (args === null) {
      const message = `call ${step} to '${name}': the arguments must be a JSON object`;
      return refuse(
        { kind: "code_error", cause: "tool", message },
        "not run: its arguments are not a JSON object"
      );
    }
    const dangerous = dangerousKeyProblem(args);
    if (dangerous !== null) {
      const message = `call ${step} to '${name}': ${dangerous}`;
      return refuse({ kind: "code_error", cause: "tool", message }, `not run: ${dangerous}`);
    }
    this.calls.push(entry);
    return { call: entry, step };
  }
};
var MAX_REASON_CHARS = 1e3;
function readReason(json) {
  const value = json === null ? null : parseString(json);
  return clip(value?.trim() || "no reason given", MAX_REASON_CHARS);
}
function isFailure(value) {
  return "kind" in value && "cause" in value;
}
function parseString(json) {
  try {
    const value = JSON.parse(json);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}
function parsePlainObject(json) {
  try {
    const value = JSON.parse(json);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

// core/sandbox/sandbox-clock.ts
var cpuNow = typeof process.threadCpuUsage === "function" ? () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e3;
} : () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
var WATCH_DEADLINE = 0;
var WATCHDOG_GRACE_MS = 500;
function sharedNow() {
  return performance.timeOrigin + performance.now();
}
var EPOCH = 2 ** 30;
function watchdogDeadline(budgetMs, wallMs) {
  const grace = Math.max(WATCHDOG_GRACE_MS, wallMs / 4);
  return Math.max(1, Math.ceil(sharedNow() + budgetMs + grace) % EPOCH);
}
var RunClock = class {
  #limits;
  #cpuUsed = 0;
  #wallUsed = 0;
  #sliceWall = 0;
  #sliceCpu = null;
  #watch;
  /** `watch`: where each slice's deadline goes for the host's watchdog (`watchdogDeadline`). */
  constructor(limits, watch2) {
    this.#limits = limits;
    this.#watch = watch2;
  }
  /** A slice of the code's execution starts. */
  begin() {
    this.#sliceWall = performance.now();
    this.#sliceCpu = null;
    if (this.#watch) {
      const left = Math.max(0, this.#limits.wallMs - this.#wallUsed);
      Atomics.store(this.#watch, WATCH_DEADLINE, watchdogDeadline(left, this.#limits.wallMs));
    }
  }
  /** The slice ends: its time is added to the run's. */
  end() {
    if (this.#watch) Atomics.store(this.#watch, WATCH_DEADLINE, 0);
    const wall = performance.now() - this.#sliceWall;
    this.#wallUsed += wall;
    this.#cpuUsed += this.#sliceCpuSoFar(wall);
  }
  /** Asked by the engine while code runs: the limit that has passed, or null to let it go on. */
  check() {
    const wall = performance.now() - this.#sliceWall;
    this.#sliceCpu ??= { wall, cpu: cpuNow() };
    if (this.#cpuUsed + wall > this.#limits.cpuMs) {
      const cpu = this.#cpuUsed + this.#sliceCpuSoFar(wall);
      if (cpu > this.#limits.cpuMs) {
        return {
          kind: "cpu",
          cause: "tool",
          message: `the tool's code ran for more than ${this.#limits.cpuMs} ms of its own time and was stopped`
        };
      }
    }
    if (this.#wallUsed + wall > this.#limits.wallMs) {
      return {
        kind: "deadline",
        cause: "host",
        message: `the tool's code took more than ${this.#limits.wallMs} ms of wall-clock time (base calls not counted) while using less than its ${this.#limits.cpuMs} ms of computing time: the host is overloaded`
      };
    }
    return null;
  }
  /**
   * The slice's computing time. Reading the CPU clock costs a system call, so it starts only at the slice's
   * first interrupt check: what ran before it (never more than a few thousand instructions) is counted at its
   * wall-clock time, which on one thread is never less than its CPU time.
   */
  #sliceCpuSoFar(wall) {
    const started = this.#sliceCpu;
    if (started === null) return wall;
    return started.wall + (cpuNow() - started.cpu);
  }
};

// core/sandbox/sandbox-context.ts
var INTRINSICS = { ...DefaultIntrinsics, Proxy: false, TypedArrays: false };
function openContext(instance, inCheck, host) {
  try {
    const rt = instance.quickjs.newRuntime();
    rt.setInterruptHandler(host.interrupt);
    const ctx = rt.newContext({ intrinsics: INTRINSICS });
    const prelude = ctx.evalCode(PRELUDE, "tooldistill-prelude.js", { type: "global", strict: true });
    const hostCall = ctx.newFunction("call", host.call);
    const hostNotApplicable = ctx.newFunction("notApplicable", host.notApplicable);
    const flag = inCheck ? ctx.true : ctx.false;
    const api = prelude.error ? prelude : ctx.callFunction(prelude.value, ctx.undefined, hostCall, flag, hostNotApplicable);
    if (api.error) return { kind: "engine", cause: "host", message: "the sandbox prelude failed to start" };
    const get = (name) => ctx.getProp(api.value, name);
    return {
      rt,
      ctx,
      api: {
        define: get("define"),
        kind: get("kind"),
        run: get("run"),
        check: get("check"),
        describe: get("describe"),
        parse: get("parse")
      }
    };
  } catch (err) {
    return {
      kind: "engine",
      cause: "host",
      message: `the sandbox engine could not start: ${errorMessage(err)}`
    };
  }
}

// core/sandbox/sandbox-sites.ts
var PLACE = new RegExp(`\\(${TOOL_FILE.replace(".", "\\.")}:(\\d+):(\\d+)\\)`, "g");
function siteFromStack(positions, stack) {
  if (stack === null) return null;
  let found = null;
  for (const match of stack.matchAll(PLACE)) {
    const id = positions.at.get(`${match[1]}:${match[2]}`);
    if (id === void 0) continue;
    if (found !== null) return null;
    found = id;
  }
  return found;
}

// core/sandbox/sandbox-run.ts
var SandboxRun = class {
  #instance;
  #inCheck;
  /** Test only: the context outlives its run (test/sandbox-isolation.test.ts breaks the isolation with it). */
  #keepForTest;
  #limits = null;
  #gate = null;
  #clock = null;
  #setup = null;
  #rt = null;
  #ctx = null;
  #api = null;
  #failure = null;
  /** The reason the code gave through the prelude's host function: the run ended as not applicable. */
  #notApplicable = null;
  #inflight = 0;
  #batch = [];
  /** Dispatched calls whose answers the guest has not had yet, in call order. */
  #queue = [];
  #wake = null;
  /** Makes the runtime and context on `instance` and evaluates the prelude: host work, before any run. */
  constructor(instance, inCheck, keepForTest = false) {
    this.#instance = instance;
    this.#inCheck = inCheck;
    this.#keepForTest = keepForTest;
    this.#prepare();
  }
  /** The memory cap of this run's instance, in MB: a run asking for another one needs another instance. */
  get memoryMb() {
    return this.#instance.memoryMb;
  }
  /** Gives the prepared instance its run: limits, allowlist, sites and how calls are performed. */
  begin(setup, limits) {
    this.#failure = null;
    this.#notApplicable = null;
    this.#setup = setup;
    this.#limits = limits;
    this.#gate = new CallGate(
      limits,
      setup.sites ? { allow: setup.allow, sites: setup.sites.sites } : { allow: setup.allow }
    );
    this.#clock = new RunClock(limits, setup.watch);
    this.#rt?.setMaxStackSize(limits.stackKb * 1024);
  }
  /** Every base call the code asked for, in order, with its outcome. */
  get calls() {
    return this.#gate?.calls ?? [];
  }
  /** Runs the tool with `inputJson`; the result is the tool's result as the host parsed it. */
  async run(body, inputJson) {
    const limits = this.#limits;
    const loaded = this.#load(body);
    if (loaded === null) return this.#finish(null);
    const promise = this.#slice(() => this.#guest("run", "", loaded.definition, this.#newString(inputJson)));
    const tagged = promise === null ? null : await this.#settle(promise);
    if (tagged === null) return this.#finish(null);
    const read = readResult(tagged, limits.maxMessageBytes);
    if ("kind" in read) this.#fail(read);
    return this.#finish("kind" in read ? null : read);
  }
  /** Runs the module's `check` on `resultJson` in this instance, which never ran the tool. */
  async check(body, resultJson) {
    const loaded = this.#load(body);
    if (loaded === null) return this.#failure ?? unknownFailure();
    if (!loaded.hasCheck) return "absent";
    const verdict = this.#read(
      this.#slice(
        () => this.#guest("check", "check(result) threw: ", loaded.definition, this.#newString(resultJson))
      )
    );
    if (verdict === "P" && !this.#instance.growthRefused()) return "passed";
    if (this.#instance.growthRefused()) this.#fail(memoryFailure(this.#limits));
    const failure = this.#failure;
    if (failure) return failure.kind === "code_error" ? { ...failure, kind: "check_failed" } : failure;
    return checkRefused(verdict);
  }
  /** The runtime, the context and the prelude, with the host's functions; a failure here is the host's. */
  #prepare() {
    const opened = openContext(this.#instance, this.#inCheck, {
      call: (name, args, stack) => this.#hostCall(name, args, stack),
      notApplicable: (reason) => this.#hostNotApplicable(reason),
      interrupt: () => this.#interrupt()
    });
    if ("kind" in opened) this.#fail(opened);
    else ({ rt: this.#rt, ctx: this.#ctx, api: this.#api } = opened);
  }
  /** Makes the tool's definition from its body; null (with a failure) when it cannot. */
  #load(body) {
    const factory = this.#slice(() => {
      const ctx = this.#ctx;
      if (!ctx || !this.#api) return null;
      const made2 = ctx.evalCode(`${BODY_PREFIX}${body}
})`, TOOL_FILE, { type: "global", strict: true });
      if (made2.error) {
        this.#failFromGuest(made2.error, "", "bad_module");
        return null;
      }
      return made2.value;
    });
    if (factory === null) return null;
    const definition = this.#slice(() => this.#guest("define", "the module threw while loading: ", factory));
    if (definition === null) return null;
    const kind = this.#read(this.#slice(() => this.#guest("kind", "", definition)));
    if (kind === "ok" || kind === "no-check") return { definition, hasCheck: kind === "ok" };
    this.#fail(badDefinition(kind));
    return null;
  }
  /** Calls a prelude function; a guest exception fails the run as a code error with `prefix`. */
  #guest(name, prefix, ...args) {
    const ctx = this.#ctx;
    const api = this.#api;
    if (!ctx || !api) return null;
    const r = ctx.callFunction(api[name], ctx.undefined, ...args);
    if (r.error) {
      this.#failFromGuest(r.error, prefix, "code_error");
      r.error.dispose();
      return null;
    }
    return r.value;
  }
  #newString(text) {
    return this.#ctx.newString(text);
  }
  #read(handle) {
    const ctx = this.#ctx;
    if (!ctx || handle === null || this.#failure) return null;
    return ctx.typeof(handle) === "string" ? ctx.getString(handle) : null;
  }
  /** Runs `fn` as a slice of the tool's execution (time and CPU counted); an engine exception ends the run. */
  #slice(fn) {
    if (this.#failure) return null;
    this.#clock.begin();
    const exitCode = process.exitCode;
    try {
      return fn();
    } catch (err) {
      this.#engineThrew(err);
      return null;
    } finally {
      if (process.exitCode !== exitCode) process.exitCode = exitCode;
      this.#clock.end();
    }
  }
  /** Called by the engine while code runs: true stops the code (an error it cannot catch). */
  #interrupt() {
    if (this.#failure || this.#notApplicable !== null) return true;
    const passed = this.#clock?.check() ?? null;
    if (passed) this.#fail(passed);
    return passed !== null;
  }
  /** The engine itself threw (not the guest): classified by what the host saw. */
  #engineThrew(err) {
    this.#fail(engineFailure(err, this.#instance.growthRefused(), this.#limits));
  }
  /** A guest exception ended a slice: the host's own observations first, then the error's text. */
  #failFromGuest(error, prefix, kind) {
    if (this.#failure) return;
    const observed = this.#instance.growthRefused() ? memoryFailure(this.#limits) : null;
    this.#fail(observed ?? guestFailure(this.#describe(error), prefix, kind));
  }
  /** The error's text with the tool's line where its stack has one; guest text, so clipped. */
  #describe(error) {
    const ctx = this.#ctx;
    const api = this.#api;
    if (!ctx || !api) return "the tool's code failed";
    const r = ctx.callFunction(api.describe, ctx.undefined, error);
    if (r.error || ctx.typeof(r.value) !== "string")
      return "the tool's code threw a value that cannot be described";
    return describedError(ctx.getString(r.value));
  }
  /**
   * The guest's `call(nameJson, argsJson, stack)`: admitted by the gate, answered by promise. `stack` is the one
   * the prelude took inside `call`; where the run has call sites, the host places the call from it.
   */
  #hostCall(nameHandle, argsHandle, stackHandle) {
    const ctx = this.#ctx;
    const deferred = ctx.newPromise();
    if (this.#failure || this.#notApplicable !== null || !this.#gate) return deferred.handle;
    const text = (h) => h && ctx.typeof(h) === "string" ? ctx.getString(h) : null;
    const sites = this.#setup?.sites;
    const site = sites === void 0 ? null : siteFromStack(sites, text(stackHandle));
    const admitted = this.#gate.admit(text(nameHandle), text(argsHandle), site);
    if (isFailure(admitted)) this.#fail(admitted);
    else this.#batch.push({ ...admitted, deferred });
    return deferred.handle;
  }
  /** The guest's `notApplicable(reasonJson)`: the first ends the run (unless it already failed). */
  #hostNotApplicable(reasonHandle) {
    const ctx = this.#ctx;
    if (this.#failure || this.#notApplicable !== null) return;
    const isText = reasonHandle && ctx.typeof(reasonHandle) === "string";
    this.#notApplicable = readReason(isText ? ctx.getString(reasonHandle) : null);
  }
  /** Sends the calls the code made in the slice that just ended, unless that slice ended the run. */
  #dispatchBatch() {
    const batch = this.#batch;
    this.#batch = [];
    if (this.#failure || this.#notApplicable !== null) {
      const at = this.#failure?.step ?? this.calls.length;
      const why = this.#failure ? `the tool was stopped at step ${at}` : "the tool ended with notApplicable";
      for (const p of batch) p.call.error ??= `not run: ${why}`;
      return;
    }
    for (const p of batch) this.#dispatch(p);
  }
  #dispatch(pending) {
    this.#inflight++;
    this.#queue.push(pending);
    void this.#setup.perform(pending).then(
      (answer) => this.#answered(pending, answer),
      (err) => this.#answered(pending, { kind: "engine", cause: "host", message: errorMessage(err) })
    );
  }
  #answered(pending, answer) {
    pending.answer = answer;
    this.#inflight--;
    this.#wake?.();
  }
  /**
   * Gives the guest the next answer in call order, if it has come: true when one was handled. Only the oldest
   * undelivered call is looked at, so the guest sees answers in the order it made the calls, in replay and live.
   * The host's handles go once used: what the answer keeps alive is only what the guest's code keeps.
   */
  #deliverNext() {
    const next2 = this.#queue[0];
    if (next2?.answer === void 0) return false;
    this.#queue.shift();
    const answer = next2.answer;
    if (isFailure(answer)) {
      this.#fail(answer);
      return true;
    }
    this.#slice(() => {
      const text = this.#newString(answer.json);
      const value = this.#guest("parse", "", text);
      text.dispose();
      if (value !== null) {
        next2.deferred.resolve(value);
        value.dispose();
      }
      return null;
    });
    if (next2.deferred.alive) next2.deferred.dispose();
    return true;
  }
  /** Pumps the engine's jobs until the run's promise settles; the JSON text of its result, or null. */
  async #settle(promise) {
    const ctx = this.#ctx;
    const rt = this.#rt;
    for (; ; ) {
      this.#dispatchBatch();
      this.#slice(() => {
        const jobs = rt.executePendingJobs();
        if (jobs.error) this.#failFromGuest(jobs.error, "", "code_error");
        return null;
      });
      this.#dispatchBatch();
      if (this.#failure || this.#notApplicable !== null) return null;
      const state = ctx.getPromiseState(promise);
      if (state.type === "fulfilled") {
        const json = ctx.typeof(state.value) === "string" ? ctx.getString(state.value) : null;
        if (json === null) this.#fail(codeError("the tool gave no result"));
        return json;
      }
      if (state.type === "rejected") {
        this.#failFromGuest(state.error, "", "code_error");
        return null;
      }
      if (this.#deliverNext()) continue;
      if (this.#inflight === 0 && this.#queue.length === 0 && !rt.hasPendingJob()) {
        this.#fail(
          codeError("the tool's promise never settled: its code is waiting, but not on any base call")
        );
        return null;
      }
      await this.#sleep();
    }
  }
  /** Waits for every dispatched call (their outcomes belong to the record), then gives the outcome. */
  async #finish(done) {
    while (this.#inflight > 0) {
      await this.#sleep();
    }
    for (const p of this.#queue) if (p.answer !== void 0 && isFailure(p.answer)) this.#fail(p.answer);
    if (this.#instance.growthRefused()) this.#fail(memoryFailure(this.#limits));
    this.#drop();
    const reason = this.#notApplicable;
    if (!this.#failure && reason !== null)
      return { ok: true, result: null, check: "skipped", calls: this.calls, notApplicable: reason };
    if (this.#failure || done === null)
      return { ok: false, failure: this.#failure ?? unknownFailure(), calls: this.calls };
    return { ok: true, result: done.result, check: "skipped", calls: this.calls };
  }
  /** The instance is never reused: the references go, and with them its memory. */
  #drop() {
    if (this.#keepForTest) return;
    this.#api = null;
    this.#ctx = null;
    this.#rt = null;
  }
  /**
   * Ends the instance once its outcome is out (off the run's path): nothing here calls into it again, so its
   * memory can be zeroed for a later instance (quickjs-engine.ts).
   */
  dispose() {
    this.#drop();
    if (!this.#keepForTest) dropEngineInstance(this.#instance);
  }
  /** Until an answer comes (or the run is ended). */
  async #sleep() {
    await new Promise((resolve) => {
      this.#wake = resolve;
    });
    this.#wake = null;
  }
  #fail(failure) {
    if (!this.#failure) this.#failure = failure;
  }
};

// core/sandbox/sandbox-worker.ts
var port = parentPort;
if (port === null)
  throw new Error("core/sandbox/sandbox-worker.ts runs as a worker thread, started by the sandbox");
var data = workerData;
useEngineModule(data.module);
var watch = new Int32Array(data.watch);
var answers = /* @__PURE__ */ new Map();
var made = 0;
var next = prepare(data.memoryMb, false);
void next.then(
  () => post({ type: "ready", made: take() }),
  () => post({ type: "ready", made: take() })
);
var kept = null;
port.on("message", (msg) => {
  if (msg.type === "answer") answers.get(msg.step)?.(msg.answer);
  else void runJob(msg);
});
async function prepare(memoryMb, inCheck) {
  const instance = await newEngineInstance(memoryMb);
  made++;
  return new SandboxRun(instance, inCheck, data.reuseRunsForTest === true && !inCheck);
}
function take() {
  const n = made;
  made = 0;
  return n;
}
function post(msg) {
  port.postMessage(msg);
}
async function runJob(job) {
  let outcome;
  const used = [];
  try {
    outcome = await execute(job, used);
  } catch (err) {
    outcome = {
      ok: false,
      failure: { kind: "engine", cause: "host", message: `the sandbox engine failed: ${errorMessage(err)}` },
      calls: []
    };
  }
  answers.clear();
  post({ type: "done", id: job.id, outcome, made: take() });
  for (const run of used) run.dispose();
  if (data.reuseRunsForTest === true && kept !== null) next = Promise.resolve(kept);
  else next = prepare(data.memoryMb, false);
}
async function execute(job, used) {
  const { limits } = job;
  let run = await next;
  used.push(run);
  if (run.memoryMb !== limits.memoryMb) {
    run = await prepare(limits.memoryMb, false);
    used.push(run);
  }
  if (data.reuseRunsForTest === true) kept ??= run;
  const perform = (admitted) => new Promise((resolve) => {
    answers.set(admitted.step, resolve);
    const site = admitted.call.site === void 0 ? void 0 : job.sites?.sites[admitted.call.site - 1];
    const outcomes = site?.id === admitted.call.site ? site?.outcomes : void 0;
    post({
      type: "call",
      id: job.id,
      step: admitted.step,
      tool: admitted.call.tool,
      args: admitted.call.args,
      ...outcomes ? { outcomes } : {}
    });
  });
  const sites = job.sites && { sites: job.sites.sites, at: new Map(job.sites.at) };
  run.begin({ allow: job.allow, perform, watch, ...sites ? { sites } : {} }, limits);
  const checking = job.runCheck ? prepare(limits.memoryMb, true) : null;
  checking?.then(
    (checker2) => used.push(checker2),
    () => {
    }
  );
  const outcome = await run.run(job.body, job.input);
  if (!outcome.ok || checking === null || outcome.notApplicable !== void 0) {
    await checking?.catch(() => {
    });
    return outcome;
  }
  const checker = await checking;
  checker.begin({ allow: [], perform: refuseCall, watch }, limits);
  const verdict = await checker.check(job.body, JSON.stringify(outcome.result));
  return verdict === "passed" || verdict === "absent" ? { ...outcome, check: verdict } : { ok: false, failure: verdict, calls: outcome.calls };
}
async function refuseCall() {
  return { kind: "code_error", cause: "tool", message: "call() is not available in check()" };
}
