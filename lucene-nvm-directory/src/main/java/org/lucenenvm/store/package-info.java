/**
 * A Lucene {@link org.apache.lucene.store.Directory} in byte-addressable persistent memory.
 *
 * <ul>
 *   <li>{@link org.lucenenvm.store.NvmHeap}: one pre-allocated pool file (on a DAX file system, a
 *       {@code /dev/dax} device, or an ordinary file as emulation) mapped into memory, with root
 *       slots, offsets as persistent pointers, and {@code persist} as the one durability
 *       primitive. The mapping comes from a {@link org.lucenenvm.store.PoolBackend}: {@link
 *       org.lucenenvm.store.FfmPoolBackend} (the JDK's FFM API, the default) or {@link
 *       org.lucenenvm.store.LlplPoolBackend} (Intel's llpl over PMDK, optional).
 *   <li>{@link org.lucenenvm.store.NvmDirectory}: Lucene files in extents of the pool, written with
 *       stores and read in place as {@link org.apache.lucene.store.MemorySegmentAccessInput}s; a
 *       copy-on-write file table published by one persisted 8-byte store, so a crash leaves the
 *       last published table. {@code copyFrom} within a directory clones a file without copying:
 *       extents may be shared by several files, with reference counts rebuilt on open. With a
 *       {@link org.lucenenvm.store.PoolGrowth} the pool grows while open, the new range mapped
 *       as one more chunk ({@link org.lucenenvm.store.NvmHeap#grow}). {@link org.lucenenvm.store.NvmRegion} is a file its owner updates in
 *       place (the real-time engine's ingest log).
 *   <li>{@link org.lucenenvm.store.DramDirectory}: a volatile directory in native memory read
 *       through the same input classes, the DRAM tier beside an {@code NvmDirectory}.
 * </ul>
 *
 * Failures name the pool and the numbers: {@link org.lucenenvm.store.InvalidPoolException} for a
 * pool that cannot be opened as asked, {@link org.lucenenvm.store.PoolFullException} for an
 * allocation it has no room for.
 */
package org.lucenenvm.store;
