/**
 * The sandbox's engine: QuickJS compiled to WebAssembly (quickjs-emscripten, release-sync variant).
 * The compiled WebAssembly module (code only, immutable) is made once per process; every run gets a new
 * instance of it with a linear memory no other instance holds (new, or a dropped instance's, zeroed), so nothing
 * a tool's code made can outlive its run or be seen by another run. The memory is ours: its maximum is the run's memory cap, and a growth it refuses is
 * how the host knows, by its own observation, that a run ran out of memory.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import {
  type CustomizeVariantOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { DistillError, errorMessage } from "../errors.ts";

// The package lists its CommonJS types first, so TypeScript sees the module object; under the "import"
// condition Node loads its ESM build, whose default export is the variant itself.
const variant = releaseSync as unknown as QuickJSSyncVariant;
const PAGE_BYTES = 65536;
/** The module's own minimum memory (16 MiB): its static data, its stack and the start of its heap. */
export const ENGINE_BASE_MB = 16;
/** The file name of the engine next to a bundle (scripts/render-plugin.ts copies it there). */
export const WASM_FILE = "quickjs.wasm";

/** One fresh engine instance, used for one run (or one check) and then dropped. */
export interface EngineInstance {
  readonly quickjs: QuickJSWASMModule;
  /** The cap of its whole memory, in MB. */
  readonly memoryMb: number;
  /** True when the last attempt to grow the memory was refused because it would pass the cap. */
  readonly growthRefused: () => boolean;
}

/**
 * The few WebAssembly classes this module uses, typed here: TypeScript declares them only in its DOM library,
 * which neither this project nor a Node user's project loads.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(delta: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null = null;

/** Where the engine's .wasm is: next to this file when bundled, else in its npm package. */
export function engineWasmPath(): string {
  const beside = fileURLToPath(new URL(`./${WASM_FILE}`, import.meta.url));
  if (existsSync(beside)) return beside;
  try {
    return createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
  } catch (err) {
    throw new DistillError(
      "USAGE",
      `the sandbox engine (${WASM_FILE}) is missing: reinstall tooldistill, or keep ${WASM_FILE} next to a bundle`,
      { cause: err },
    );
  }
}

/**
 * The compiled module, made on first use (synchronously: about 3 ms, V8 compiles lazily). The sandbox compiles it
 * once on the main thread and hands it to each engine worker (a compiled module crosses threads as it is).
 */
export function compiledModule(): object {
  if (compiled) return compiled;
  const path = engineWasmPath();
  try {
    compiled = new wasm.Module(readFileSync(path));
    return compiled;
  } catch (err) {
    throw new DistillError("USAGE", `cannot load the sandbox engine from ${path}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
}

/** Uses `module`, compiled by another thread of this process (`compiledModule`), for this thread's instances. */
export function useEngineModule(module: object): void {
  compiled = module;
}

/** A linear memory and what the host observed of its growth (reset when the memory serves a new instance). */
interface MemorySlot {
  readonly memory: WasmMemory;
  readonly maximumPages: number;
  refused: boolean;
}

const INITIAL_PAGES = (ENGINE_BASE_MB * 1024 * 1024) / PAGE_BYTES;
/**
 * Memories of dropped instances, every byte zeroed, by their maximum in pages. A new memory costs this thread an
 * allocation of 16 MiB that only a full garbage collection frees (V8 runs one every few instances for that
 * reason alone); zeroing one that never grew costs less, and zeroed it is byte for byte what a new one is.
 */
const spareMemories = new Map<number, MemorySlot[]>();
/** Spare memories kept per maximum: a run and its check hold two at once. */
const SPARE_MEMORIES = 2;
const slots = new WeakMap<EngineInstance, MemorySlot>();

function takeMemory(memoryMb: number): MemorySlot {
  const maximumPages = Math.max(ENGINE_BASE_MB, Math.ceil(memoryMb)) * ((1024 * 1024) / PAGE_BYTES);
  const spare = spareMemories.get(maximumPages)?.pop();
  if (spare !== undefined) {
    spare.refused = false;
    return spare;
  }
  const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: maximumPages });
  const slot: MemorySlot = { memory, maximumPages, refused: false };
  const grow = memory.grow.bind(memory);
  // Emscripten grows the memory through this method when its heap is full; it tries a few sizes and
  // gives up (malloc fails, QuickJS throws "out of memory") when every one passes the maximum.
  memory.grow = (delta: number): number => {
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

/**
 * A new engine instance whose whole memory (data, stack and heap) is capped at `memoryMb` megabytes: a memory
 * never used, or one a dropped instance used that `dropEngineInstance` zeroed, which no other instance holds.
 * Output the engine would print (it has no reason to) goes nowhere: stdout belongs to the protocol.
 */
export async function newEngineInstance(memoryMb: number): Promise<EngineInstance> {
  const slot = takeMemory(memoryMb);
  const quiet = (): void => {};
  // Emscripten's own print hooks (not in the package's types): the engine prints nothing on stdout.
  const output = { print: quiet, printErr: quiet } as NonNullable<
    CustomizeVariantOptions["emscriptenModule"]
  >;
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, {
      // The package types these with the DOM library's WebAssembly classes; they are those objects.
      wasmModule: compiledModule() as never,
      wasmMemory: slot.memory as never,
      emscriptenModule: output,
    }),
  );
  const instance: EngineInstance = { quickjs, memoryMb, growthRefused: () => slot.refused };
  slots.set(instance, slot);
  return instance;
}

/**
 * Ends `instance`: the caller holds no reference that could call into it again. Its memory, unless it grew
 * (a memory cannot shrink), is zeroed and kept for a later instance; the rest goes with the instance.
 */
export function dropEngineInstance(instance: EngineInstance): void {
  const slot = slots.get(instance);
  slots.delete(instance);
  if (slot === undefined || slot.memory.buffer.byteLength !== INITIAL_PAGES * PAGE_BYTES) return;
  const spares = spareMemories.get(slot.maximumPages) ?? [];
  if (spares.length >= SPARE_MEMORIES) return;
  if (!keepUnzeroed) new Uint8Array(slot.memory.buffer).fill(0);
  spares.push(slot);
  spareMemories.set(slot.maximumPages, spares);
}

let keepUnzeroed = false;

/**
 * Test only (test/sandbox-isolation.test.ts): `true` breaks the isolation on purpose, a dropped instance's memory
 * kept as it is, to prove the test sees it.
 */
export function breakMemoryZeroingForTest(on: boolean): void {
  keepUnzeroed = on;
}

/** Test only: the memory the next instance capped at `memoryMb` would get, to read its bytes from the host. */
export function peekSpareMemoryForTest(memoryMb: number): ArrayBuffer | null {
  const maximumPages = Math.max(ENGINE_BASE_MB, Math.ceil(memoryMb)) * ((1024 * 1024) / PAGE_BYTES);
  const spares = spareMemories.get(maximumPages);
  return spares?.[spares.length - 1]?.memory.buffer ?? null;
}
