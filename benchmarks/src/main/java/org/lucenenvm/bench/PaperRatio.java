package org.lucenenvm.bench;

/**
 * One figure of a paper beside the same figure measured here, both as ratios (the hardware differs,
 * so absolute values do not carry over).
 *
 * @param paperRow the paper's configuration, e.g. {@code NRT-100} or {@code Compressed NVM}
 * @param ourRow the configuration measured here, e.g. {@code WRT NRT-100}
 * @param workload workload or query set, e.g. {@code HH}, {@code single term}, {@code all six}
 * @param metric what the ratio is of, e.g. {@code P99 / SP-V-L P99}
 * @param paper the paper's ratio, {@code NaN} where the paper has no such figure
 * @param measured the measured ratio, {@code NaN} where the run has no such row
 * @param source where in the paper the figure is (table, figure, section)
 */
public record PaperRatio(String paperRow, String ourRow, String workload, String metric, double paper, double measured, String source) {}
