// The WebAssembly classes the sandbox engine uses. TypeScript declares them only in its DOM library,
// which this project does not load (it runs on Node, not in a browser).
declare global {
  namespace WebAssembly {
    class Module {
      constructor(bytes: Uint8Array);
    }
    interface MemoryDescriptor {
      initial: number;
      maximum?: number;
    }
    class Memory {
      constructor(descriptor: MemoryDescriptor);
      readonly buffer: ArrayBuffer;
      grow(delta: number): number;
    }
  }
}

export {};
