package io.github.mcpsupervisor.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

/**
 * Configuration of the supervised MCP servers ({@code mcp.servers[*]}). Unknown keys are
 * rejected.
 *
 * @param servers the MCP servers to supervise
 */
@ConfigurationProperties(prefix = "mcp", ignoreUnknownFields = false)
@Validated
@UniqueServerNames
public record McpSupervisorProperties(@DefaultValue @Valid List<Server> servers) {

	/**
	 * One supervised MCP server.
	 *
	 * @param name unique name of the server: 1 to 32 letters, digits, '_' or '-'; the
	 * prefix of its tool names
	 * @param transport how to reach the server; only 'stdio' is supported so far
	 * @param command the executable that starts a stdio server (required for stdio)
	 * @param args the arguments of the command
	 * @param env environment variables added to those the application inherits
	 * @param workingDirectory working directory of the server process (must exist);
	 * default the application's
	 * @param requestTimeout timeout of each request to the server
	 * @param initializationTimeout timeout of the initialize handshake of each connection
	 * attempt
	 * @param terminationGracePeriod how long the server may take to exit after its stdin
	 * is closed and SIGTERM sent, before its whole process tree is killed
	 * @param failOnStartupError whether the application fails to start when this server
	 * does not connect at its first attempt
	 * @param required whether the 'mcp' health component is DOWN while this server is not
	 * UP; an optional server's failure shows in the details only
	 * @param reconnect how a lost server is reconnected
	 */
	@ValidServer
	public record Server(
			@NotBlank @Pattern(regexp = "[A-Za-z0-9_-]{1,32}",
					message = "must be 1 to 32 letters, digits, '_' or '-'") @Nullable String name,
			@DefaultValue("stdio") McpTransportType transport, @Nullable String command,
			@DefaultValue List<String> args, @DefaultValue Map<String, String> env, @Nullable Path workingDirectory,
			@DefaultValue("20s") @DurationMin(nanos = 1, message = "must be positive") Duration requestTimeout,
			@DefaultValue("20s") @DurationMin(nanos = 1,
					message = "must be positive") Duration initializationTimeout,
			@DefaultValue("2s") @DurationMin(nanos = 1,
					message = "must be positive") Duration terminationGracePeriod,
			@DefaultValue("false") boolean failOnStartupError, @DefaultValue("false") boolean required,
			@DefaultValue @Valid Reconnect reconnect) {

		/**
		 * Returns how to run this server as a stdio process.
		 * @return the definition
		 */
		public StdioServerDefinition toStdioDefinition() {
			return new StdioServerDefinition(String.valueOf(this.name), String.valueOf(this.command), this.args,
					this.env, this.workingDirectory, this.requestTimeout, this.initializationTimeout,
					this.terminationGracePeriod);
		}

	}

	/**
	 * How a lost server is reconnected.
	 *
	 * @param enabled whether a lost server is reconnected automatically; when false it
	 * stays DISCONNECTED, its tools failing, until it is reset
	 * @param initialDelay delay before the first reconnect attempt of an outage; it
	 * doubles with each attempt
	 * @param maxDelay upper bound of the delay between attempts; also the stability
	 * window: a connection that stays up this long resets the attempt budget
	 * @param maxAttempts attempts per outage before the server is given up (FAILED, tools
	 * withdrawn)
	 * @param jitter fraction (0 to 1) of each delay by which it is randomly shifted
	 */
	@ValidDelays
	public record Reconnect(@DefaultValue("true") boolean enabled,
			@DefaultValue("500ms") @DurationMin(nanos = 1, message = "must be positive") Duration initialDelay,
			@DefaultValue("30s") @DurationMin(nanos = 1, message = "must be positive") Duration maxDelay,
			@DefaultValue("10") @Min(1) int maxAttempts,
			@DefaultValue("0.1") @DecimalMin("0.0") @DecimalMax("1.0") double jitter) {

		/**
		 * Returns the policy of the supervisor.
		 * @return the reconnect policy
		 */
		public ReconnectPolicy toPolicy() {
			return new ReconnectPolicy(this.enabled, this.initialDelay, this.maxDelay, this.maxAttempts, this.jitter);
		}

	}

}
