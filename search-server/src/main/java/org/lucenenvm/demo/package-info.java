/**
 * The demo behind {@code scripts/demo.sh}: {@link org.lucenenvm.demo.ServerDemo} starts an
 * embedded {@link org.lucenenvm.server.SearchServer}, ingests a {@link
 * org.lucenenvm.demo.SyntheticCorpus} (its words' popularity drawn by {@link
 * org.lucenenvm.demo.ZipfRanks}) over HTTP, shows that each new document is found by the next
 * query, restarts the server and shows the index back. Not part of the server's API.
 */
package org.lucenenvm.demo;
