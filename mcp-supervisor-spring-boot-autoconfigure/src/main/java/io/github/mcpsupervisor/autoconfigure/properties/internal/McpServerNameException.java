package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.List;

/**
 * Thrown when Spring Boot's binding would change the name of a server as it is written,
 * or mix up the tools of {@code call.timeouts} written without brackets.
 */
class McpServerNameException extends RuntimeException {

	private final List<String> problems;

	McpServerNameException(List<String> problems) {
		super("Spring Boot's binding would change the name of an MCP server or tool:%n%n%s"
			.formatted(String.join("%n%n".formatted(), problems)));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Returns each name that binding would change, in the user's words.
	 * @return the problems
	 */
	List<String> getProblems() {
		return this.problems;
	}

}
