package io.github.mcpsupervisor.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import org.jspecify.annotations.Nullable;

/**
 * How to run one stdio MCP server.
 *
 * @param name the server's name (for logs and thread names)
 * @param command the executable
 * @param args its arguments
 * @param env the server's own variables, added to those it inherits
 * @param workingDirectory the working directory, or {@code null} for the application's
 * @param requestTimeout the timeout of each request
 * @param initializationTimeout the timeout of the initialize handshake
 * @param terminationGracePeriod how long a process may take to exit after stdin is closed
 * and SIGTERM sent, before its tree is killed
 * @param inheritEnv the variables of the application's environment that the server
 * inherits besides those every process needs: names, patterns in which {@code *} stands
 * for any characters (e.g. {@code AWS_*}), {@code *} for all
 * @param toolTimeouts the timeouts of the calls of some tools, by the tool's name on the
 * server, in place of the request timeout
 * @since 0.1.0
 */
public record StdioServerDefinition(String name, String command, List<String> args, Map<String, String> env,
		@Nullable Path workingDirectory, Duration requestTimeout, Duration initializationTimeout,
		Duration terminationGracePeriod, List<String> inheritEnv, Map<String, Duration> toolTimeouts) {

	public StdioServerDefinition {
		args = List.copyOf(args);
		env = Map.copyOf(env);
		inheritEnv = List.copyOf(inheritEnv);
		toolTimeouts = Map.copyOf(toolTimeouts);
	}

	/**
	 * Creates the definition of a server whose tool calls all have the request timeout.
	 * @param name the server's name
	 * @param command the executable
	 * @param args its arguments
	 * @param env the server's own variables
	 * @param workingDirectory the working directory, or {@code null} for the
	 * application's
	 * @param requestTimeout the timeout of each request
	 * @param initializationTimeout the timeout of the initialize handshake
	 * @param terminationGracePeriod how long a process may take to exit before its tree
	 * is killed
	 * @param inheritEnv the variables of the application's environment that the server
	 * inherits besides those every process needs
	 */
	public StdioServerDefinition(String name, String command, List<String> args, Map<String, String> env,
			@Nullable Path workingDirectory, Duration requestTimeout, Duration initializationTimeout,
			Duration terminationGracePeriod, List<String> inheritEnv) {
		this(name, command, args, env, workingDirectory, requestTimeout, initializationTimeout, terminationGracePeriod,
				inheritEnv, Map.of());
	}

	/**
	 * Creates the definition of a server that inherits only what every process needs.
	 * @param name the server's name
	 * @param command the executable
	 * @param args its arguments
	 * @param env the server's own variables
	 * @param workingDirectory the working directory, or {@code null} for the
	 * application's
	 * @param requestTimeout the timeout of each request
	 * @param initializationTimeout the timeout of the initialize handshake
	 * @param terminationGracePeriod how long a process may take to exit before its tree
	 * is killed
	 */
	public StdioServerDefinition(String name, String command, List<String> args, Map<String, String> env,
			@Nullable Path workingDirectory, Duration requestTimeout, Duration initializationTimeout,
			Duration terminationGracePeriod) {
		this(name, command, args, env, workingDirectory, requestTimeout, initializationTimeout, terminationGracePeriod,
				List.of());
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

	/**
	 * Describes the server as it may be logged: the command line masked, the names of the
	 * environment's variables without their values.
	 * @return the description
	 */
	@Override
	public String toString() {
		return "StdioServerDefinition[name=" + this.name + ", commandLine=" + maskedCommandLine() + ", env="
				+ masked(this.env) + ", workingDirectory=" + this.workingDirectory + ", requestTimeout="
				+ this.requestTimeout + ", initializationTimeout=" + this.initializationTimeout
				+ ", terminationGracePeriod=" + this.terminationGracePeriod + ", inheritEnv=" + this.inheritEnv
				+ ", toolTimeouts=" + this.toolTimeouts + "]";
	}

	// the names of the variables or headers, each with its value masked
	static Map<String, String> masked(Map<String, String> values) {
		Map<String, String> masked = new TreeMap<>();
		values.keySet().forEach((key) -> masked.put(key, ConfigurationSanitizer.MASK));
		return masked;
	}

	/**
	 * Masks the secrets of the command line and of the credential-like environment
	 * variables wherever a text (a failure, a line of the server) quotes them.
	 * @param text the text
	 * @return the text with the secrets masked
	 */
	public String redact(String text) {
		List<String> secrets = new ArrayList<>(ConfigurationSanitizer.secrets(commandLine(), null));
		this.env.forEach((name, value) -> {
			if (ConfigurationSanitizer.isLikelyCredential(name)) {
				secrets.add(value);
			}
		});
		return ConfigurationSanitizer.redact(text, secrets);
	}

}
