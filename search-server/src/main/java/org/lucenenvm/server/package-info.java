/**
 * The search server: indexes of the real-time engine ({@link org.lucenenvm.realtime.RtEngine}),
 * one NVM pool each, behind a JSON HTTP API on Jetty.
 *
 * <ul>
 *   <li>{@link org.lucenenvm.server.SearchServer}, embeddable, configured by {@link
 *       org.lucenenvm.server.ServerConfig}; {@link org.lucenenvm.server.ServerCli} is the {@code
 *       search-server} command ({@code scripts/server.sh}).
 *   <li>{@link org.lucenenvm.server.IndexRegistry} owns the indexes ({@link
 *       org.lucenenvm.server.OpenIndex}) and their files in the data directory; each index is
 *       described by an {@link org.lucenenvm.server.IndexDefinition} and reported by {@link
 *       org.lucenenvm.server.IndexStats}.
 *   <li>Requests: bulk NDJSON ingest, single documents, Lucene-syntax search bounded by {@link
 *       org.lucenenvm.server.QueryLimits} and a time budget, statistics and Prometheus metrics;
 *       refusals are {@link org.lucenenvm.server.ApiException}s answered as JSON errors.
 *   <li>{@link org.lucenenvm.server.ApiClient} is a small client of the API; {@link
 *       org.lucenenvm.server.ProgressMeter}, {@link org.lucenenvm.server.ByteSize} and {@link
 *       org.lucenenvm.server.TimeSpan} serve the command lines.
 * </ul>
 *
 * The API is documented in {@code search-server/README.md}.
 */
package org.lucenenvm.server;
