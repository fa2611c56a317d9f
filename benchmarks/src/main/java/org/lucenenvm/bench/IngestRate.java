package org.lucenenvm.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The {@code --ingest-rate} option of {@code run} and {@code compare} (a picocli mixin): WRT
 * ingestion paced at a fixed number of documents per second ({@link IngestPacer}), the same for
 * every configuration, so that query figures compare at equal ingest work; unpaced (as fast as the
 * target takes documents) when not given.
 */
final class IngestRate {

  private static final Pattern NUMBER = Pattern.compile("[0-9]+(\\.[0-9]+)?");

  @Option(names = "--ingest-rate", paramLabel = "N", converter = Converter.class,
      description = "WRT: ingest at N documents per second (document i due i/N s after the start; a configuration that cannot keep up"
          + " is reported so), the same for every configuration and warm-up pass (default: unpaced, as fast as possible).")
  Double docsPerSecond;

  /** Parses the option's value. */
  static final class Converter implements CommandLine.ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code value} as a rate: a positive decimal number of documents per second ({@code 20000}, {@code 2.5}). */
  static double parse(String value) {
    if (value == null || !NUMBER.matcher(value).matches()) {
      throw new IllegalArgumentException("'" + value + "' is not a rate: give a positive number of documents per second, e.g. 20000");
    }
    return IngestPacer.checkRate(Double.parseDouble(value));
  }

  /** The rate, or 0 when ingestion is unpaced. */
  double orUnpaced() {
    return docsPerSecond == null ? 0 : docsPerSecond;
  }

  /** The option as arguments of a child JVM ({@code compare}): none when unpaced. */
  List<String> toArgs() {
    List<String> args = new ArrayList<>();
    if (docsPerSecond != null) {
      args.add("--ingest-rate");
      args.add(new BigDecimal(Double.toString(docsPerSecond)).stripTrailingZeros().toPlainString());
    }
    return args;
  }
}
