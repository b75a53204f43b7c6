// The browser-shaped ground a server bundle stands on in a bare QuickJS engine (render/engine.rs
// evaluates this once per engine, before the bundle). It gives what React 19's
// `react-dom/server` (the `.browser` build) and the libraries around it reach for: `self`,
// timers, `MessageChannel`, `queueMicrotask`, `TextEncoder`/`TextDecoder`, `console` and
// `performance.now`.
//
// What it does NOT define is as deliberate: `window` and `document`. Libraries decide "am I in a
// browser?" by them (React among them: `canUseDOM`), and a server render that took that branch
// would touch a DOM that is not there.
//
// Timers are a queue the host drains (engine.rs): after the render function returns a Promise,
// the host runs the engine's jobs (promise reactions), then the next task of this queue, and so
// on until the Promise settles or nothing is left. Delays only order the tasks: a render has no
// real time to wait for, so `setTimeout(f, 5000)` runs as soon as the tasks due before it have.
//
// Evaluates to a function the host calls once with its own functions (`log`); it returns the
// hooks the host keeps (`runTask`, `clearTasks`, `takeUncaught`). Nothing of the host is left on
// `globalThis`.
(function installPrelude(host) {
  'use strict';

  const global = globalThis;
  const define = (name, value) => {
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  };

  define('self', global);

  // ---- console: forwarded to the host's log (bounded there too) ----------------------------
  const MAX_LINE = 2000;
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
    if (typeof value === 'symbol' || typeof value === 'bigint') return value.toString();
    if (value !== null && typeof value === 'object') {
      try {
        const json = JSON.stringify(value);
        if (json !== undefined) return json;
      } catch (_) {
        // a cycle or a throwing getter: fall through to String()
      }
    }
    try {
      return String(value);
    } catch (_) {
      return '[value]';
    }
  };
  // `console.error('%s failed: %d', a, b)`: the substitutions browsers and Node make.
  const format = (args) => {
    let rest = args;
    let head = '';
    if (typeof args[0] === 'string' && args[0].includes('%')) {
      let next = 1;
      head = args[0].replace(/%[sdifoOjc%]/g, (spec) => {
        if (spec === '%%') return '%';
        if (next >= args.length) return spec;
        const arg = args[next++];
        switch (spec) {
          case '%d':
          case '%i':
            return String(parseInt(arg, 10));
          case '%f':
            return String(parseFloat(arg));
          case '%c':
            return '';
          default:
            return show(arg);
        }
      });
      rest = args.slice(next);
    } else if (args.length > 0) {
      head = show(args[0]);
      rest = args.slice(1);
    }
    let line = head;
    for (const arg of rest) {
      if (line.length >= MAX_LINE) break;
      line += ' ' + show(arg);
    }
    return line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
  };
  const LOG = 0;
  const WARN = 1;
  const write = (level) =>
    function (...args) {
      host.log(level, format(args));
    };
  const console = {
    log: write(LOG),
    info: write(LOG),
    debug: write(LOG),
    trace: write(LOG),
    dir: write(LOG),
    warn: write(WARN),
    error: write(WARN),
    assert(condition, ...args) {
      if (!condition) host.log(WARN, 'Assertion failed' + (args.length ? ': ' + format(args) : ''));
    },
    // Present so a library that groups or times its output does not throw; nothing to show.
    group() {},
    groupCollapsed() {},
    groupEnd() {},
    time() {},
    timeEnd() {},
    timeLog() {},
    count() {},
    table: write(LOG),
  };
  define('console', console);

  // The first exception a task or microtask threw and nobody caught: a browser reports it and
  // goes on; so does this, and the host names it if the render then never settles.
  let uncaught;
  const report = (error) => {
    if (uncaught === undefined) uncaught = error === undefined ? null : error;
    console.error('Uncaught', error);
  };

  // ---- tasks: timers, immediates and messages, in one ordered queue ------------------------
  let clock = 0; // virtual milliseconds: advanced to each task's due time as it runs
  let order = 0; // ties on the due time run in the order they were scheduled
  let lastId = 0;
  const tasks = []; // sorted by (due, order)

  const insert = (task) => {
    let low = 0;
    let high = tasks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = tasks[mid];
      if (other.due < task.due || (other.due === task.due && other.order < task.order)) low = mid + 1;
      else high = mid;
    }
    tasks.splice(low, 0, task);
  };
  const schedule = (callback, delay, args, repeat) => {
    if (typeof callback !== 'function') {
      throw new TypeError('a timer callback must be a function (strings are not evaluated)');
    }
    const ms = Math.max(0, Number(delay) || 0);
    const id = ++lastId;
    insert({ id, due: clock + ms, order: order++, callback, args, every: repeat ? ms : -1 });
    return id;
  };
  const cancel = (id) => {
    const at = tasks.findIndex((task) => task.id === id);
    if (at >= 0) tasks.splice(at, 1);
  };

  define('setTimeout', function setTimeout(callback, delay, ...args) {
    return schedule(callback, delay, args, false);
  });
  define('setInterval', function setInterval(callback, delay, ...args) {
    return schedule(callback, delay, args, true);
  });
  define('setImmediate', function setImmediate(callback, ...args) {
    return schedule(callback, 0, args, false);
  });
  define('clearTimeout', function clearTimeout(id) {
    cancel(id);
  });
  define('clearInterval', function clearInterval(id) {
    cancel(id);
  });
  define('clearImmediate', function clearImmediate(id) {
    cancel(id);
  });

  // QuickJS has its own queueMicrotask; this one reports a throwing callback as a browser does
  // instead of letting it reach the host as a failed job.
  define('queueMicrotask', function queueMicrotask(callback) {
    if (typeof callback !== 'function') {
      throw new TypeError('queueMicrotask needs a function');
    }
    Promise.resolve().then(() => {
      try {
        callback();
      } catch (error) {
        report(error);
      }
    });
  });

  // ---- MessageChannel: a message is a task, delivered to the other port --------------------
  class MessagePort {
    #other = null;
    #closed = false;
    #listeners = [];
    onmessage = null;

    static link(a, b) {
      a.#other = b;
      b.#other = a;
    }

    postMessage(data) {
      const target = this.#other;
      if (this.#closed || target === null) return;
      schedule(() => target.#deliver(data), 0, [], false);
    }

    #deliver(data) {
      if (this.#closed) return;
      const event = { type: 'message', data, target: this, currentTarget: this };
      if (typeof this.onmessage === 'function') this.onmessage(event);
      for (const listener of this.#listeners.slice()) listener.call(this, event);
    }

    addEventListener(type, listener) {
      if (type === 'message' && typeof listener === 'function' && !this.#listeners.includes(listener)) {
        this.#listeners.push(listener);
      }
    }

    removeEventListener(type, listener) {
      if (type !== 'message') return;
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    }

    start() {}

    close() {
      this.#closed = true;
    }
  }
  class MessageChannel {
    constructor() {
      this.port1 = new MessagePort();
      this.port2 = new MessagePort();
      MessagePort.link(this.port1, this.port2);
    }
  }
  define('MessagePort', MessagePort);
  define('MessageChannel', MessageChannel);

  // ---- TextEncoder / TextDecoder: UTF-8, as the Encoding Standard has it --------------------
  const REPLACEMENT = 0xfffd;

  // The code point at `i` of `text` and how many code units it took; a lone surrogate is
  // U+FFFD (what a browser's encoder writes for it).
  const codePointAt = (text, i) => {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) return [unit, 1];
    if (unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) return [0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00), 2];
    }
    return [REPLACEMENT, 1];
  };
  const utf8Length = (point) => (point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4);
  const writeUtf8 = (point, out, at) => {
    if (point < 0x80) {
      out[at] = point;
      return 1;
    }
    if (point < 0x800) {
      out[at] = 0xc0 | (point >> 6);
      out[at + 1] = 0x80 | (point & 0x3f);
      return 2;
    }
    if (point < 0x10000) {
      out[at] = 0xe0 | (point >> 12);
      out[at + 1] = 0x80 | ((point >> 6) & 0x3f);
      out[at + 2] = 0x80 | (point & 0x3f);
      return 3;
    }
    out[at] = 0xf0 | (point >> 18);
    out[at + 1] = 0x80 | ((point >> 12) & 0x3f);
    out[at + 2] = 0x80 | ((point >> 6) & 0x3f);
    out[at + 3] = 0x80 | (point & 0x3f);
    return 4;
  };

  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }

    encode(input = '') {
      const text = String(input);
      // At most three bytes per UTF-16 code unit (a surrogate pair: four bytes for two units).
      const out = new Uint8Array(text.length * 3);
      let written = 0;
      for (let i = 0; i < text.length; ) {
        const [point, units] = codePointAt(text, i);
        written += writeUtf8(point, out, written);
        i += units;
      }
      return out.slice(0, written);
    }

    encodeInto(input, destination) {
      const text = String(input);
      let read = 0;
      let written = 0;
      while (read < text.length) {
        const [point, units] = codePointAt(text, read);
        if (written + utf8Length(point) > destination.length) break;
        written += writeUtf8(point, destination, written);
        read += units;
      }
      return { read, written };
    }
  }

  const bytesOf = (input) => {
    if (input === undefined || input === null) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError('TextDecoder.decode needs an ArrayBuffer or a view of one');
  };
  const LABELS = ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'];

  class TextDecoder {
    #fatal;
    #ignoreBOM;
    // The Encoding Standard's UTF-8 decoder state, kept between `{ stream: true }` calls.
    #point = 0;
    #needed = 0;
    #seen = 0;
    #lower = 0x80;
    #upper = 0xbf;
    #started = false; // whether this stream has produced its first code point (the BOM check)

    constructor(label = 'utf-8', options = {}) {
      if (!LABELS.includes(String(label).trim().toLowerCase())) {
        throw new RangeError(`TextDecoder: the encoding "${label}" is not supported (UTF-8 only)`);
      }
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
    }

    get encoding() {
      return 'utf-8';
    }

    get fatal() {
      return this.#fatal;
    }

    get ignoreBOM() {
      return this.#ignoreBOM;
    }

    decode(input, options = {}) {
      const bytes = bytesOf(input);
      const stream = Boolean(options && options.stream);
      const units = [];
      let text = '';
      const flush = () => {
        text += String.fromCharCode.apply(null, units);
        units.length = 0;
      };
      const emit = (point) => {
        if (!this.#started) {
          this.#started = true;
          if (point === 0xfeff && !this.#ignoreBOM) return;
        }
        if (point > 0xffff) {
          const offset = point - 0x10000;
          units.push(0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff));
        } else {
          units.push(point);
        }
        if (units.length >= 8192) flush();
      };
      const error = () => {
        if (this.#fatal) {
          this.#reset();
          this.#started = false;
          throw new TypeError('TextDecoder: the data is not valid UTF-8');
        }
        emit(REPLACEMENT);
      };
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i];
        if (this.#needed === 0) {
          if (byte <= 0x7f) {
            emit(byte);
          } else if (byte >= 0xc2 && byte <= 0xdf) {
            this.#needed = 1;
            this.#point = byte & 0x1f;
          } else if (byte >= 0xe0 && byte <= 0xef) {
            if (byte === 0xe0) this.#lower = 0xa0;
            if (byte === 0xed) this.#upper = 0x9f;
            this.#needed = 2;
            this.#point = byte & 0x0f;
          } else if (byte >= 0xf0 && byte <= 0xf4) {
            if (byte === 0xf0) this.#lower = 0x90;
            if (byte === 0xf4) this.#upper = 0x8f;
            this.#needed = 3;
            this.#point = byte & 0x07;
          } else {
            error();
          }
          continue;
        }
        if (byte < this.#lower || byte > this.#upper) {
          // The sequence ends here, broken; this byte starts afresh.
          this.#reset();
          i -= 1;
          error();
          continue;
        }
        this.#lower = 0x80;
        this.#upper = 0xbf;
        this.#point = (this.#point << 6) | (byte & 0x3f);
        this.#seen += 1;
        if (this.#seen === this.#needed) {
          const point = this.#point;
          this.#reset();
          emit(point);
        }
      }
      if (!stream) {
        if (this.#needed !== 0) {
          this.#reset();
          error();
        }
        this.#started = false;
      }
      flush();
      return text;
    }

    #reset() {
      this.#point = 0;
      this.#needed = 0;
      this.#seen = 0;
      this.#lower = 0x80;
      this.#upper = 0xbf;
    }
  }
  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);

  // ---- performance.now: QuickJS-ng has it; a fallback on the wall clock otherwise ----------
  if (typeof global.performance !== 'object' || typeof global.performance.now !== 'function') {
    const origin = Date.now();
    define('performance', { now: () => Date.now() - origin, timeOrigin: origin });
  }

  // ---- EventTarget, AbortSignal, AbortController: what data libraries start a request with --
  // (Redux Toolkit's thunks make a controller per query). Listeners in order, `once`, the
  // `on<type>` property; an aborted signal fires `abort` once and keeps its reason.
  class EventTarget {
    #listeners = new Map();
    addEventListener(type, listener, options) {
      if (typeof listener !== 'function' && !(listener && typeof listener.handleEvent === 'function')) return;
      const list = this.#listeners.get(type) ?? [];
      if (list.some((entry) => entry.listener === listener)) return;
      list.push({ listener, once: Boolean(options && typeof options === 'object' && options.once) });
      this.#listeners.set(type, list);
    }
    removeEventListener(type, listener) {
      const list = this.#listeners.get(type);
      if (list) this.#listeners.set(type, list.filter((entry) => entry.listener !== listener));
    }
    dispatchEvent(event) {
      const handler = this[`on${event.type}`];
      const list = [...(this.#listeners.get(event.type) ?? [])];
      Object.defineProperty(event, 'target', { value: this, configurable: true });
      if (typeof handler === 'function') handler.call(this, event);
      for (const entry of list) {
        if (entry.once) this.removeEventListener(event.type, entry.listener);
        if (typeof entry.listener === 'function') entry.listener.call(this, event);
        else entry.listener.handleEvent(event);
      }
      return true;
    }
  }
  class Event {
    constructor(type) {
      this.type = String(type);
    }
  }
  class AbortSignal extends EventTarget {
    aborted = false;
    reason = undefined;
    onabort = null;
    throwIfAborted() {
      if (this.aborted) throw this.reason;
    }
    static abort(reason) {
      const controller = new AbortController();
      controller.abort(reason);
      return controller.signal;
    }
  }
  class AbortController {
    signal = new AbortSignal();
    abort(reason) {
      if (this.signal.aborted) return;
      const error = new Error('This operation was aborted');
      error.name = 'AbortError';
      this.signal.aborted = true;
      this.signal.reason = reason === undefined ? error : reason;
      this.signal.dispatchEvent(new Event('abort'));
    }
  }
  define('EventTarget', EventTarget);
  define('Event', Event);
  define('AbortSignal', AbortSignal);
  define('AbortController', AbortController);

  // ---- the host's hooks ----------------------------------------------------------------------
  return {
    // Runs the next task; false when none is left.
    runTask() {
      const task = tasks.shift();
      if (task === undefined) return false;
      if (task.due > clock) clock = task.due;
      if (task.every >= 0) {
        // Back in the queue before it runs, so that the callback can clear its own interval.
        task.due = clock + task.every;
        task.order = order++;
        insert(task);
      }
      try {
        task.callback.apply(global, task.args);
      } catch (error) {
        report(error);
      }
      return true;
    },
    // Forgets every task and the uncaught error: a call never sees the previous call's timers.
    clearTasks() {
      tasks.length = 0;
      uncaught = undefined;
    },
    // The first uncaught exception of a task since the last clear (undefined when none).
    takeUncaught() {
      const error = uncaught;
      uncaught = undefined;
      return error;
    },
  };
});
