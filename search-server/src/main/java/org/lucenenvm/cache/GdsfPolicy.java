package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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
 */
public final class GdsfPolicy<K> implements CachePolicy<K> {
  private static final class Node<K> {
    final K key;
    final long sequence;
    final double valuePerByte;
    long frequency;
    double priority;

    Node(K key, long sequence, double valuePerByte) {
      this.key = key;
      this.sequence = sequence;
      this.valuePerByte = valuePerByte;
    }
  }

  private final int capacity;
  private final Map<K, Node<K>> nodes = new HashMap<>();
  private final TreeSet<Node<K>> byPriority =
      new TreeSet<>(
          (a, b) -> {
            int c = Double.compare(a.priority, b.priority);
            return c != 0 ? c : Long.compare(a.sequence, b.sequence);
          });
  private long sequence;
  private double clock;

  /** A GDSF policy for {@code capacity} (at least 1) entries. */
  public GdsfPolicy(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("GDSF capacity must be >= 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  public boolean isResident(K key) {
    return nodes.containsKey(key);
  }

  @Override
  public void onHit(K key) {
    Node<K> node = nodes.get(key);
    if (node == null) {
      throw new IllegalArgumentException("hit on a key that is not resident: " + key);
    }
    byPriority.remove(node);
    node.frequency++;
    node.priority = clock + node.frequency * node.valuePerByte;
    byPriority.add(node);
  }

  @Override
  public List<K> onInsert(K key, long computeNanos, long bytes) {
    if (nodes.containsKey(key)) {
      throw new IllegalArgumentException("key is already resident: " + key);
    }
    if (computeNanos < 0 || bytes < 1) {
      throw new IllegalArgumentException(
          "GDSF needs compute time >= 0 and size >= 1, got " + computeNanos + " ns, " + bytes + " bytes");
    }
    List<K> evicted = new ArrayList<>();
    while (nodes.size() >= capacity) {
      evicted.add(evictOne());
    }
    Node<K> node = new Node<>(key, sequence++, (double) computeNanos / bytes);
    node.frequency = 1;
    node.priority = clock + node.valuePerByte;
    nodes.put(key, node);
    byPriority.add(node);
    return evicted;
  }

  @Override
  public K evictOne() {
    Node<K> lowest = byPriority.pollFirst();
    if (lowest == null) {
      return null;
    }
    nodes.remove(lowest.key);
    clock = lowest.priority;
    return lowest.key;
  }

  @Override
  public void remove(K key) {
    Node<K> node = nodes.remove(key);
    if (node != null) {
      byPriority.remove(node);
    }
  }

  @Override
  public int size() {
    return nodes.size();
  }

  @Override
  public int capacity() {
    return capacity;
  }

  /** The clock: the priority of the last key evicted (0 before any eviction). */
  public double clock() {
    return clock;
  }
}
