package org.lucenenvm.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * The machine's load averages at one moment, as {@code uptime} prints them: from {@code
 * /proc/loadavg} on Linux, elsewhere the 1-minute average of the JVM's {@code
 * OperatingSystemMXBean} (5 and 15 minutes {@code NaN}).
 *
 * @param at when it was read
 * @param one 1-minute load average
 * @param five 5-minute load average
 * @param fifteen 15-minute load average
 */
public record MachineLoad(Instant at, double one, double five, double fifteen) {

  private static final Path LOADAVG = Path.of("/proc/loadavg");

  /** The load now. */
  public static MachineLoad now() {
    Instant at = Instant.now();
    try {
      if (Files.isReadable(LOADAVG)) {
        return parse(at, Files.readString(LOADAVG));
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("load: cannot read " + LOADAVG + " (" + e + "); using the JVM's 1-minute load average");
    }
    return new MachineLoad(at, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Double.NaN, Double.NaN);
  }

  /** Parses the first three fields of a {@code /proc/loadavg} line. */
  static MachineLoad parse(Instant at, String loadavg) {
    String[] f = loadavg.trim().split("\\s+");
    if (f.length < 3) {
      throw new IllegalArgumentException("not a /proc/loadavg line: " + loadavg);
    }
    return new MachineLoad(at, Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
  }

  /** {@code uptime}'s form: {@code 0.52, 0.61, 0.70}. */
  public String averages() {
    return String.format(Locale.ROOT, "%.2f, %.2f, %.2f", one, five, fifteen);
  }
}
