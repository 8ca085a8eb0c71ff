package io.github.mcpsupervisor.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * How to run one stdio MCP server.
 *
 * @param name the server's name (for logs and thread names)
 * @param command the executable
 * @param args its arguments
 * @param env variables added to the inherited environment
 * @param workingDirectory the working directory, or {@code null} for the application's
 * @param requestTimeout the timeout of each request
 * @param initializationTimeout the timeout of the initialize handshake
 * @param terminationGracePeriod how long a process may take to exit after stdin is closed
 * and SIGTERM sent, before its tree is killed
 */
public record StdioServerDefinition(String name, String command, List<String> args, Map<String, String> env,
		@Nullable Path workingDirectory, Duration requestTimeout, Duration initializationTimeout,
		Duration terminationGracePeriod) {

	public StdioServerDefinition {
		args = List.copyOf(args);
		env = Map.copyOf(env);
	}

	/**
	 * Returns the command line.
	 * @return the command followed by its arguments
	 */
	public List<String> commandLine() {
		return Stream.concat(Stream.of(this.command), this.args.stream()).toList();
	}

	/**
	 * Returns the command line with its secrets masked, as it may be shown and logged.
	 * @return the masked command line
	 * @see ConfigurationSanitizer#maskCommandLine(List)
	 */
	public List<String> maskedCommandLine() {
		return ConfigurationSanitizer.maskCommandLine(commandLine());
	}

	// Masks the secrets of the command line and of the credential-like environment
	// variables wherever a text (a failure, a line of the server) quotes them.
	String redact(String text) {
		List<String> secrets = new ArrayList<>(ConfigurationSanitizer.secrets(commandLine(), null));
		this.env.forEach((name, value) -> {
			if (ConfigurationSanitizer.isLikelyCredential(name)) {
				secrets.add(value);
			}
		});
		return ConfigurationSanitizer.redact(text, secrets);
	}

}
