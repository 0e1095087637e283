package org.quadfence.deploy;

import org.junit.jupiter.api.Test;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.ReadmeTable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and the pages of docs/ stay true to each other and to the code: every relative link
 * leads to a file, every anchor to a heading of its target, every page is linked from the README,
 * the README stays a first visit's length, and its short options table gives true defaults.
 */
class DocsLinksTest {

    private static final Path README = Path.of("README.md");
    private static final Path DOCS = Path.of("docs");

    /** The README's limit, in bytes: a first visit's page, with the rest in docs/. */
    private static final long README_MOST_BYTES = 20_000;

    /** An inline link or image: its target, up to a space (and a title) or the parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)[^)]*\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.*?)[ #]*$");

    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

    private static final Pattern LINK_TEXT = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

    @Test
    void everyRelativeLinkLeadsToAFileAndEveryAnchorToAHeadingOfIt() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                if (target.matches("[a-z]+:.*")) {
                    continue; // http, https, mailto: not this test's to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (hash >= 0
                        && !anchors.computeIfAbsent(resolved, DocsLinksTest::anchors)
                                .contains(target.substring(hash + 1))) {
                    broken.add(page + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void everyPageOfDocsIsLinkedFromTheReadme() throws IOException {
        Set<Path> linked = new HashSet<>();
        for (String target : links(README)) {
            linked.add(Path.of(target.replaceFirst("#.*", "")).normalize());
        }
        assertThat(pages().stream().filter(p -> !p.equals(README))).allMatch(linked::contains);
    }

    @Test
    void theReadmeStaysUnderTwentyKilobytes() throws IOException {
        assertThat(Files.size(README)).isLessThan(README_MOST_BYTES);
    }

    @Test
    void eachOptionOfTheReadmesShortTableExistsWithTheDefaultItGives() throws IOException {
        List<List<String>> rows = ReadmeTable.rows("README.md", "| option | default | meaning |");
        assertThat(rows).isNotEmpty();
        for (List<String> row : rows) {
            String[] known = JobOptions.KNOWN.get(row.get(0));
            assertThat(known).as("option " + row.get(0)).isNotNull();
            String given = row.get(1).equals("(none)") ? "" : row.get(1);
            assertThat(given).as(row.get(0) + " default").isEqualTo(known[0]);
        }
    }

    @Test
    void theOptionsPageListsEveryOption() throws IOException {
        Set<String> listed = new TreeSet<>();
        for (List<String> row :
                ReadmeTable.rows("docs/options.md", "| option | default | meaning |")) {
            listed.add(row.get(0));
        }
        assertThat(listed).containsAll(JobOptions.KNOWN.keySet());
    }

    /** The README and the pages directly in docs/. */
    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(README));
        try (Stream<Path> docs = Files.list(DOCS)) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The targets of the page's links, outside code blocks and code spans. */
    private static List<String> links(Path page) throws IOException {
        List<String> targets = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced && !line.startsWith("    ")) {
                Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
                while (m.find()) {
                    targets.add(m.group(1));
                }
            }
        }
        return targets;
    }

    /**
     * The anchors GitHub gives the headings of a Markdown file: the heading's text (links by their
     * text) in lower case, each space a '-', punctuation other than '-' and '_' dropped, and "-1",
     * "-2" ... after a repeated one. Empty for a file that is not Markdown.
     */
    private static Set<String> anchors(Path file) {
        Set<String> anchors = new HashSet<>();
        if (!file.toString().endsWith(".md")) {
            return anchors;
        }
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        try {
            for (String line : Files.readAllLines(file)) {
                fenced ^= line.startsWith("```");
                Matcher h = HEADING.matcher(line);
                if (!fenced && h.matches()) {
                    String slug =
                            LINK_TEXT
                                    .matcher(h.group(1))
                                    .replaceAll("$1")
                                    .toLowerCase(Locale.ROOT)
                                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                                    .replace(' ', '-');
                    int n = seen.merge(slug, 1, Integer::sum) - 1;
                    anchors.add(n == 0 ? slug : slug + "-" + n);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return anchors;
    }
}
