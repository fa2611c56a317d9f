package org.lucenenvm.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Dynamic LIRS (Li, 2018), as Kilrain-Mottram used it: keys with a low inter-reference recency
 * (LIR) stay resident; the others (HIR) pass through a small resident queue, and the split between
 * LIR and resident-HIR space adapts. Structures:
 *
 * <ul>
 *   <li>the stack S, in recency order, holds every LIR key and the HIR keys (resident or only
 *       remembered, "non-resident") seen since the oldest LIR key; it is pruned so its bottom is
 *       always a LIR key;
 *   <li>the queue Q holds the resident HIR keys in eviction order;
 *   <li>G lists the HIR keys in S, oldest first, to bound the non-resident keys remembered (at most
 *       twice the capacity in all).
 * </ul>
 *
 * A miss on a non-resident key in S means the HIR space was too small: it grows by max(1,
 * round(demoted / non-resident)) and the key becomes LIR. A hit on a resident HIR key that was
 * demoted from LIR means the LIR space was too small: it grows by max(1, round(non-resident /
 * demoted)). A hit on a HIR key in S promotes it to LIR, demoting the bottom LIR key when the LIR
 * space is full. Initially 1 % of the capacity (at least one entry) is HIR space.
 */
public final class DlirsPolicy<K> implements CachePolicy<K> {
  private enum Status {
    LIR,
    HIR,
    NON_RESIDENT
  }

  private static final class Node {
    Status status;
    boolean demoted;

    Node(Status status) {
      this.status = status;
    }
  }

  private final int capacity;
  private final Map<K, Node> nodes = new HashMap<>();
  private final LinkedHashSet<K> stack = new LinkedHashSet<>();
  private final LinkedHashSet<K> queue = new LinkedHashSet<>();
  private final LinkedHashSet<K> hirInStack = new LinkedHashSet<>();
  private int lirLimit;
  private int lirCount;
  private int hirCount;
  private int demotedCount;
  private int nonResidentCount;

  /** A DLIRS policy for {@code capacity} (at least 2) entries. */
  public DlirsPolicy(int capacity) {
    if (capacity < 2) {
      throw new IllegalArgumentException("DLIRS capacity must be >= 2, got " + capacity);
    }
    this.capacity = capacity;
    this.lirLimit = capacity - Math.max(1, Math.round(capacity * 0.01f));
  }

  @Override
  public boolean isResident(K key) {
    Node node = nodes.get(key);
    return node != null && node.status != Status.NON_RESIDENT;
  }

  @Override
  public void onHit(K key) {
    Node node = nodes.get(key);
    if (node == null || node.status == Status.NON_RESIDENT) {
      throw new IllegalArgumentException("hit on a key that is not resident: " + key);
    }
    if (node.status == Status.LIR) {
      boolean wasBottom = key.equals(stack.getFirst());
      moveToTop(stack, key);
      if (wasBottom) {
        prune();
      }
    } else if (stack.contains(key)) {
      stack.remove(key);
      hirInStack.remove(key);
      queue.remove(key);
      hirCount--;
      makeLir(key, node);
    } else {
      if (node.demoted) {
        growLir();
        node.demoted = false;
        demotedCount--;
      }
      moveToTop(queue, key);
      stack.addLast(key);
      hirInStack.addLast(key);
      limitStack();
    }
  }

  @Override
  public List<K> onInsert(K key, long computeNanos, long bytes) {
    Node node = nodes.get(key);
    if (node != null && node.status != Status.NON_RESIDENT) {
      throw new IllegalArgumentException("key is already resident: " + key);
    }
    List<K> evicted = new ArrayList<>();
    if (node != null) {
      growHir();
      forget(key);
      makeLir(key, new Node(Status.LIR));
      if (hirCount + lirCount > capacity) {
        evicted.add(evictHir());
      }
    } else if (lirCount < lirLimit && hirCount == 0) {
      lirCount++;
      nodes.put(key, new Node(Status.LIR));
      stack.addLast(key);
    } else {
      if (hirCount + lirCount >= capacity) {
        while (lirCount > lirLimit) {
          demoteBottomLir();
        }
        evicted.add(evictHir());
      }
      hirCount++;
      nodes.put(key, new Node(Status.HIR));
      stack.addLast(key);
      hirInStack.addLast(key);
      queue.addLast(key);
    }
    limitStack();
    return evicted;
  }

  @Override
  public K evictOne() {
    if (hirCount == 0 && lirCount > 0) {
      demoteBottomLir();
    }
    return hirCount == 0 ? null : evictHir();
  }

  @Override
  public void remove(K key) {
    Node node = nodes.get(key);
    if (node == null) {
      return;
    }
    switch (node.status) {
      case LIR -> lirCount--;
      case HIR -> {
        hirCount--;
        if (node.demoted) {
          demotedCount--;
        }
      }
      case NON_RESIDENT -> nonResidentCount--;
    }
    nodes.remove(key);
    boolean wasBottom = !stack.isEmpty() && key.equals(stack.getFirst());
    stack.remove(key);
    hirInStack.remove(key);
    queue.remove(key);
    if (wasBottom) {
      prune();
    }
  }

  @Override
  public int size() {
    return lirCount + hirCount;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  /** The current LIR space in entries (the rest of the capacity is resident-HIR space). */
  public int lirLimit() {
    return lirLimit;
  }

  /**
   * Makes {@code key} (in no structure) a LIR key on top of S, demoting if the LIR space is full.
   */
  private void makeLir(K key, Node node) {
    while (lirCount >= lirLimit) {
      demoteBottomLir();
    }
    node.status = Status.LIR;
    nodes.put(key, node);
    lirCount++;
    stack.addLast(key);
  }

  /** Demotes the bottom LIR key of S to a resident HIR key at the tail of Q, then prunes S. */
  private void demoteBottomLir() {
    prune();
    K bottom = stack.removeFirst();
    Node node = nodes.get(bottom);
    node.status = Status.HIR;
    node.demoted = true;
    lirCount--;
    hirCount++;
    demotedCount++;
    queue.addLast(bottom);
    prune();
  }

  /** Evicts the head of Q; it stays remembered as non-resident if it is still in S. */
  private K evictHir() {
    K victim = queue.removeFirst();
    Node node = nodes.get(victim);
    hirCount--;
    if (node.demoted) {
      node.demoted = false;
      demotedCount--;
    }
    if (stack.contains(victim)) {
      node.status = Status.NON_RESIDENT;
      nonResidentCount++;
    } else {
      nodes.remove(victim);
    }
    return victim;
  }

  /** Removes HIR keys from the bottom of S until a LIR key is at the bottom. */
  private void prune() {
    while (!stack.isEmpty()) {
      K bottom = stack.getFirst();
      Node node = nodes.get(bottom);
      if (node.status == Status.LIR) {
        return;
      }
      stack.removeFirst();
      hirInStack.remove(bottom);
      if (node.status == Status.NON_RESIDENT) {
        forget(bottom);
      }
    }
  }

  /** Drops the oldest HIR keys of S while more than twice the capacity is tracked. */
  private void limitStack() {
    while (lirCount + hirCount + nonResidentCount > 2 * capacity && !hirInStack.isEmpty()) {
      K oldest = hirInStack.removeFirst();
      stack.remove(oldest);
      if (nodes.get(oldest).status == Status.NON_RESIDENT) {
        forget(oldest);
      }
    }
  }

  private void forget(K nonResident) {
    nodes.remove(nonResident);
    stack.remove(nonResident);
    hirInStack.remove(nonResident);
    nonResidentCount--;
  }

  private void growHir() {
    int hirLimit =
        Math.min(
            capacity - 1,
            capacity - lirLimit + Math.max(1, roundedRatio(demotedCount, nonResidentCount)));
    lirLimit = capacity - hirLimit;
  }

  private void growLir() {
    lirLimit =
        Math.min(
            capacity - 1, lirLimit + Math.max(1, roundedRatio(nonResidentCount, demotedCount)));
  }

  private static int roundedRatio(int numerator, int denominator) {
    return (2 * numerator + denominator) / (2 * denominator);
  }

  private static <K> void moveToTop(LinkedHashSet<K> list, K key) {
    list.remove(key);
    list.addLast(key);
  }
}
