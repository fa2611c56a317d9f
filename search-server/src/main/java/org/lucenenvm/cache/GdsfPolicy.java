package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * GreedyDual-Size-Frequency (Cherkasova, 1998): a cost-aware policy that keeps the entries whose
 * hits save the most work per byte. Each resident key has a priority
 *
 * <pre>
 * priority = clock + frequency &times; computeNanos / bytes
 * </pre>
 *
 * where {@code frequency} counts its insert and its hits since, {@code computeNanos} is what its
 * result took to compute (what a hit saves) and {@code bytes} what its entry takes. Eviction takes
 * the lowest priority (the oldest among equals) and advances {@code clock} to it, so keys that are
 * not hit age against newcomers: a cheap result must be hit more often than an expensive one of the
 * same size to stay. A hit recomputes the key's priority against the current clock.
 *
 * <p>Under a repetitive query stream where cheap and expensive queries are equally popular, LRU
 * keeps whatever was used last; this policy keeps the expensive ones (conjunctions and
 * disjunctions of common terms) at the cost of hits on cheap ones, which saves more search time at
 * the same hit rate or lower.
 *
 * <p>The priorities are a binary min-heap in flat arrays: the heap holds each entry's priority and
 * insertion order inline, and the per-key state lives in arrays indexed by a slot that the key
 * keeps while resident. A cache's policy runs between searches that evict the CPU caches, so an
 * update is priced in cache lines more than in instructions; sifting through a few contiguous
 * arrays touches several times fewer lines than rebalancing a tree of objects.
 */
public final class GdsfPolicy<K> implements CachePolicy<K> {
  /** Slots the arrays start with; they double as needed, up to the capacity. */
  private static final int INITIAL_SLOTS = 64;

  private final int capacity;
  /** Slot of each resident key. */
  private final Map<K, Integer> slots = new HashMap<>();
  private int size;

  // per slot; slots below usedSlots are resident or free
  private Object[] keys = new Object[0];
  private long[] frequency = new long[0];
  private double[] valuePerByte = new double[0];
  /** Where the slot's entry sits in the heap. */
  private int[] heapIndex = new int[0];
  private int usedSlots;
  /** Freed slots, reused first: a stack of {@link #freeCount}. */
  private int[] freeSlots = new int[0];
  private int freeCount;

  // the heap, ordered by (priority, sequence): entries 0 to size - 1
  private double[] heapPriority = new double[0];
  private long[] heapSequence = new long[0];
  private int[] heapSlot = new int[0];

  private long sequence;
  private double clock;

  /** A GDSF policy for {@code capacity} (at least 1) entries. */
  public GdsfPolicy(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("GDSF capacity must be >= 1, got " + capacity);
    }
    this.capacity = capacity;
    resize(Math.min(capacity, INITIAL_SLOTS));
  }

  @Override
  public boolean isResident(K key) {
    return slots.containsKey(key);
  }

  @Override
  public void onHit(K key) {
    Integer slot = slots.get(key);
    if (slot == null) {
      throw new IllegalArgumentException("hit on a key that is not resident: " + key);
    }
    int s = slot;
    frequency[s]++;
    int i = heapIndex[s];
    // the priority only grows (clock never exceeds a resident priority): it sinks
    heapPriority[i] = clock + frequency[s] * valuePerByte[s];
    siftDown(i);
  }

  @Override
  public List<K> onInsert(K key, long computeNanos, long bytes) {
    if (slots.containsKey(key)) {
      throw new IllegalArgumentException("key is already resident: " + key);
    }
    if (computeNanos < 0 || bytes < 1) {
      throw new IllegalArgumentException(
          "GDSF needs compute time >= 0 and size >= 1, got " + computeNanos + " ns, " + bytes + " bytes");
    }
    List<K> evicted = new ArrayList<>(1);
    while (size >= capacity) {
      evicted.add(evictOne());
    }
    int s = newSlot();
    keys[s] = key;
    frequency[s] = 1;
    valuePerByte[s] = (double) computeNanos / bytes;
    slots.put(key, s);
    int i = size++; // the new last heap entry
    heapPriority[i] = clock + valuePerByte[s];
    heapSequence[i] = sequence++;
    heapSlot[i] = s;
    heapIndex[s] = i;
    siftUp(i);
    return evicted;
  }

  @Override
  public K evictOne() {
    if (size == 0) {
      return null;
    }
    clock = heapPriority[0];
    int s = heapSlot[0];
    K key = keyOf(s);
    removeAt(0);
    return key;
  }

  @Override
  public void remove(K key) {
    Integer slot = slots.get(key);
    if (slot != null) {
      removeAt(heapIndex[slot]);
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  /** The clock: the priority of the last key evicted (0 before any eviction). */
  public double clock() {
    return clock;
  }

  @SuppressWarnings("unchecked")
  private K keyOf(int slot) {
    return (K) keys[slot];
  }

  /** A free slot, the arrays grown if every slot is in use. */
  private int newSlot() {
    if (freeCount > 0) {
      return freeSlots[--freeCount];
    }
    if (usedSlots == keys.length) {
      resize((int) Math.min(capacity, 2L * keys.length));
    }
    return usedSlots++;
  }

  private void resize(int slotCount) {
    keys = Arrays.copyOf(keys, slotCount);
    frequency = Arrays.copyOf(frequency, slotCount);
    valuePerByte = Arrays.copyOf(valuePerByte, slotCount);
    heapIndex = Arrays.copyOf(heapIndex, slotCount);
    freeSlots = Arrays.copyOf(freeSlots, slotCount);
    heapPriority = Arrays.copyOf(heapPriority, slotCount);
    heapSequence = Arrays.copyOf(heapSequence, slotCount);
    heapSlot = Arrays.copyOf(heapSlot, slotCount);
  }

  /** Removes heap entry {@code i} and frees its slot. */
  private void removeAt(int i) {
    int s = heapSlot[i];
    slots.remove(keyOf(s));
    keys[s] = null;
    int last = --size;
    freeSlots[freeCount++] = s;
    if (i != last) {
      move(last, i);
      // the entry moved from the end may belong above or below position i
      if (!siftUp(i)) {
        siftDown(i);
      }
    }
  }

  /** Moves heap entry {@code from} to position {@code to}. */
  private void move(int from, int to) {
    heapPriority[to] = heapPriority[from];
    heapSequence[to] = heapSequence[from];
    heapSlot[to] = heapSlot[from];
    heapIndex[heapSlot[to]] = to;
  }

  /** Whether an entry of {@code priority} and {@code seq} ranks before heap entry {@code i}. */
  private boolean before(double priority, long seq, int i) {
    return priority < heapPriority[i] || (priority == heapPriority[i] && seq < heapSequence[i]);
  }

  /** Moves entry {@code i} up to its place; returns whether it moved. */
  private boolean siftUp(int i) {
    int start = i;
    double priority = heapPriority[i];
    long seq = heapSequence[i];
    int slot = heapSlot[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(priority, seq, parent)) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    place(i, priority, seq, slot);
    return i != start;
  }

  /** Moves entry {@code i} down to its place. */
  private void siftDown(int i) {
    int n = size;
    double priority = heapPriority[i];
    long seq = heapSequence[i];
    int slot = heapSlot[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && before(heapPriority[child + 1], heapSequence[child + 1], child)) {
        child++;
      }
      if (before(priority, seq, child)) {
        break;
      }
      move(child, i);
      i = child;
    }
    place(i, priority, seq, slot);
  }

  private void place(int i, double priority, long seq, int slot) {
    heapPriority[i] = priority;
    heapSequence[i] = seq;
    heapSlot[i] = slot;
    heapIndex[slot] = i;
  }
}
