package io.github.mcpsupervisor.supervisor;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The methods of {@link SupervisorListener} against the table of the operations page that
 * says when each one is called.
 */
class SupervisorListenerTests {

	private static final Path OPERATIONS = Path.of("../docs/operations.md");

	/**
	 * A method in the first column of a row: {@code | `toolsChanged(server, ToolSet)`}.
	 */
	private static final Pattern METHOD = Pattern.compile("`(\\w+)\\(");

	@Test
	void everyMethodIsInTheTableOfTheOperationsPageAndNoOther() throws IOException {
		String operations = Files.readString(OPERATIONS);
		int start = operations.indexOf("| Method | Called |", operations.indexOf("\n## Events\n"));
		int end = operations.indexOf("\n\n", start);
		Set<String> documented = new LinkedHashSet<>();
		for (String row : operations.substring(start, end).split("\n")) {
			Matcher method = METHOD.matcher(row.substring(0, row.indexOf(" | ")));
			while (method.find()) {
				documented.add(method.group(1));
			}
		}
		Set<String> declared = Arrays.stream(SupervisorListener.class.getDeclaredMethods())
			.filter(Method::isDefault)
			.map(Method::getName)
			.collect(Collectors.toSet());
		assertThat(documented).containsExactlyInAnyOrderElementsOf(declared);
	}

}
