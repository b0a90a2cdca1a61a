/**
 * The rendered catalog bodies kept in memory, under a byte budget: the least recently used body is
 * dropped first. A body lives in a slot owned by its answer, and the slots form one list, most
 * recently used first, so a hit is a pointer check and a move to the front (no key to build or
 * hash), and a dropped body is simply rendered again on its next request (docs/performance.md).
 */
/**
 * One rendered body, ready to send: its text, the length of its UTF-8 bytes (counted once, not on every
 * answer) and a strong ETag that is a hash of exactly these bytes. The body is kept as text because Node
 * writes a text body in one write with the response's head, and a Buffer in a second one beside it
 * (`writev`), which costs a read about a third more of its CPU.
 */
export interface Representation {
  readonly contentType: string;
  readonly body: string;
  readonly byteLength: number;
  readonly etag: string;
}

/** One answer's rendering in one format: empty until rendered, emptied again when evicted. */
export class RenderSlot {
  value: Representation | undefined;
  prev: RenderSlot | undefined;
  next: RenderSlot | undefined;
}

/** What a body counts against the budget: its bytes and its ETag. */
const sizeOf = (r: Representation): number => r.byteLength + r.etag.length;

// The budget holds a part of everything the shipped catalogs can answer (every body in both
// formats): the bodies asked for often stay, the rest is rendered again on request.
export const defaultRenderBudgetBytes = 8 * 2 ** 20;

export class RenderCache {
  #head: RenderSlot | undefined;
  #tail: RenderSlot | undefined;
  #bytes = 0;
  #count = 0;

  constructor(readonly budgetBytes: number = defaultRenderBudgetBytes) {}

  /** Bytes of the bodies held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Bodies held now. */
  get count(): number {
    return this.#count;
  }

  /** The slot's value, marked as most recently used; renders and keeps it when the slot is empty. */
  get(slot: RenderSlot, render: () => Representation): Representation {
    const held = slot.value;
    if (held !== undefined) {
      if (slot !== this.#head) {
        this.#unlink(slot);
        this.#pushFront(slot);
      }
      return held;
    }
    const value = render();
    slot.value = value;
    this.#pushFront(slot);
    this.#bytes += sizeOf(value);
    this.#count++;
    // Never evicts what was just rendered: a body above the budget is held alone until the next one.
    while (this.#bytes > this.budgetBytes && this.#tail !== slot) this.#evict(this.#tail!);
    return value;
  }

  /** Drops every body (the index they belong to was replaced). */
  clear(): void {
    while (this.#tail) this.#evict(this.#tail);
  }

  #evict(slot: RenderSlot): void {
    this.#unlink(slot);
    this.#bytes -= sizeOf(slot.value!);
    this.#count--;
    slot.value = undefined;
  }

  #pushFront(slot: RenderSlot): void {
    slot.prev = undefined;
    slot.next = this.#head;
    if (this.#head) this.#head.prev = slot;
    this.#head = slot;
    this.#tail ??= slot;
  }

  #unlink(slot: RenderSlot): void {
    if (slot.prev) slot.prev.next = slot.next;
    else this.#head = slot.next;
    if (slot.next) slot.next.prev = slot.prev;
    else this.#tail = slot.prev;
    slot.prev = slot.next = undefined;
  }
}
