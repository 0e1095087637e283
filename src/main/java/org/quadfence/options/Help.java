package org.quadfence.options;

import java.util.List;

/**
 * What {@code --help} prints: a command's synopsis, its own flags and every job option, each with
 * its meaning and default, wrapped at 100 columns.
 */
public final class Help {

    /** Where a meaning starts, and where its continued lines start. */
    static final int MEANING_COLUMN = 35;

    private static final int WIDTH = 100;

    /**
     * A flag of a command (not a job option).
     *
     * @param name the flag as typed, with its value's placeholder: {@code --output FILE}
     * @param meaning what it does
     * @param orElse what holds without it, such as "required" or "default: 1000"
     */
    public record Flag(String name, String meaning, String orElse) {}

    /** The flag of the commands that read a file of job options. */
    public static final Flag CONFIG =
            new Flag(
                    "--config FILE",
                    "a properties file of job options (key=value); the command line wins",
                    "default: none");

    private Help() {}

    /** Whether {@code args} ask for help: {@code --help} or {@code -h} anywhere. */
    public static boolean asked(String... args) {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    /** The help of a command: {@code usage: synopsis}, its flags, then the job options. */
    public static String of(String synopsis, List<Flag> flags) {
        StringBuilder out = new StringBuilder("usage: ").append(synopsis);
        String nl = System.lineSeparator();
        if (!flags.isEmpty()) {
            out.append(nl).append("flags:");
            for (Flag f : flags) {
                out.append(nl).append(entry(f.name(), f.meaning() + " (" + f.orElse() + ")"));
            }
        }
        return out.append(nl).append(JobOptions.describe()).toString();
    }

    /**
     * One entry: two spaces, the name, the meaning from column {@value #MEANING_COLUMN} (or on the
     * next line, for a long name), wrapped at word boundaries.
     */
    static String entry(String name, String meaning) {
        String indent = " ".repeat(MEANING_COLUMN);
        StringBuilder out = new StringBuilder("  ").append(name);
        if (out.length() >= MEANING_COLUMN) {
            out.append(System.lineSeparator()).append(indent);
        } else {
            out.append(" ".repeat(MEANING_COLUMN - out.length()));
        }
        int column = MEANING_COLUMN;
        boolean first = true;
        for (String word : meaning.split(" ")) {
            if (!first && column + 1 + word.length() > WIDTH) {
                out.append(System.lineSeparator()).append(indent);
                column = MEANING_COLUMN;
                first = true;
            }
            if (!first) {
                out.append(' ');
                column++;
            }
            out.append(word);
            column += word.length();
            first = false;
        }
        return out.toString();
    }
}
