package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import io.github.mcpsupervisor.client.internal.ElicitationLimits;
import io.github.mcpsupervisor.client.internal.SamplingLimits;
import io.github.mcpsupervisor.internal.Fingerprint;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import org.jspecify.annotations.Nullable;

/**
 * The effective settings of one configured MCP server: the {@link Server} of
 * {@code mcp.servers.<name>} merged once with {@code mcp.defaults} and the built-in
 * values, so that every setting is set, read as the supervisor's definitions and
 * policies. Made by {@link McpServerSettingsResolver} only.
 *
 * @since 0.1.0
 */
public final class McpServerSettings {

	private final String name;

	private final Server server;

	private final ReconnectPolicy reconnect;

	private final CallPolicy call;

	private final HealthCheckPolicy healthCheck;

	McpServerSettings(String name, Server server) {
		this.name = name;
		this.server = server;
		this.reconnect = ReconnectPolicy.builder()
			.enabled(server.reconnect().enabled())
			.initialDelay(server.reconnect().initialDelay())
			.maxDelay(server.reconnect().maxDelay())
			.maxAttempts(server.reconnect().maxAttempts())
			.jitter(server.reconnect().jitter())
			.cooldown(new ReconnectPolicy.Cooldown(server.reconnect().cooldown().enabled(),
					server.reconnect().cooldown().initial(), server.reconnect().cooldown().max()))
			.build();
		this.call = CallPolicy.builder()
			.waitForRecovery(server.call().waitForRecovery())
			.retry(server.call().retry())
			.trustAnnotations(server.call().trustAnnotations())
			.retryTools(server.call().retryTools())
			.build();
		this.healthCheck = HealthCheckPolicy.builder()
			.interval(server.healthCheck().interval())
			.timeout(server.healthCheck().timeout())
			.failureThreshold(server.healthCheck().failureThreshold())
			.build();
	}

	/**
	 * Returns the server's name, its key in {@code mcp.servers}.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Returns every setting of the server, each one set: its own, or the inherited one.
	 * @return the effective settings, as configuration properties
	 */
	public Server server() {
		return this.server;
	}

	/**
	 * Returns how the server is reached.
	 * @return the transport
	 */
	public McpTransportType transport() {
		return this.server.transportOrDefault();
	}

	/**
	 * Returns the executable of a stdio server.
	 * @return the command, or {@code null}
	 */
	public @Nullable String command() {
		return this.server.command();
	}

	/**
	 * Returns the arguments of the command.
	 * @return the arguments
	 */
	public List<String> args() {
		return this.server.args();
	}

	/**
	 * Returns the environment variables added to the inherited ones.
	 * @return the variables
	 */
	public Map<String, String> env() {
		return this.server.env();
	}

	/**
	 * Returns the working directory of a stdio server.
	 * @return the directory, or {@code null} for the application's
	 */
	public @Nullable Path workingDirectory() {
		return this.server.workingDirectory();
	}

	/**
	 * Returns the MCP endpoint of a streamable-http server.
	 * @return the URL, or {@code null}
	 */
	public @Nullable URI url() {
		return this.server.url();
	}

	/**
	 * Returns the HTTP headers of a streamable-http server.
	 * @return the headers
	 */
	public Map<String, String> headers() {
		return this.server.headers();
	}

	/**
	 * Returns the roots offered to the server.
	 * @return absolute file: URIs
	 */
	public List<URI> roots() {
		return this.server.roots();
	}

	/**
	 * Returns the timeout of each tool call and tool listing.
	 * @return the timeout
	 */
	public Duration requestTimeout() {
		return Objects.requireNonNull(this.server.requestTimeout());
	}

	/**
	 * Returns the timeout of the initialize handshake.
	 * @return the timeout
	 */
	public Duration initializationTimeout() {
		return Objects.requireNonNull(this.server.initializationTimeout());
	}

	/**
	 * Returns how long the server may take to exit after SIGTERM.
	 * @return the grace period
	 */
	public Duration terminationGracePeriod() {
		return Objects.requireNonNull(this.server.terminationGracePeriod());
	}

	/**
	 * Returns whether a failed first attempt aborts the start.
	 * @return whether it does
	 */
	public boolean failOnStartupError() {
		return Boolean.TRUE.equals(this.server.failOnStartupError());
	}

	/**
	 * Returns whether the health is DOWN while this server is not UP.
	 * @return whether it is required
	 */
	public boolean required() {
		return Boolean.TRUE.equals(this.server.required());
	}

	/**
	 * Returns how a lost server is reconnected.
	 * @return the policy
	 */
	public ReconnectPolicy reconnect() {
		return this.reconnect;
	}

	/**
	 * Returns how tool calls behave around outages.
	 * @return the policy
	 */
	public CallPolicy call() {
		return this.call;
	}

	/**
	 * Returns the liveness probe.
	 * @return the policy
	 */
	public HealthCheckPolicy healthCheck() {
		return this.healthCheck;
	}

	/**
	 * Returns the bounds of the server's sampling requests.
	 * @return the limits
	 */
	public SamplingLimits sampling() {
		McpSupervisorProperties.Sampling sampling = this.server.sampling();
		return new SamplingLimits(sampling.maxConcurrent(), sampling.maxPerMinute(), sampling.maxTokens());
	}

	/**
	 * Returns the bounds of the server's elicitation requests.
	 * @return the limits
	 */
	public ElicitationLimits elicitation() {
		McpSupervisorProperties.Elicitation elicitation = this.server.elicitation();
		return new ElicitationLimits(elicitation.maxConcurrent(), elicitation.maxPerMinute());
	}

	/**
	 * Returns the variables of the application's environment that a stdio server inherits
	 * besides those every process needs.
	 * @return names and patterns
	 */
	public List<String> inheritEnv() {
		return Objects.requireNonNull(this.server.inheritEnv());
	}

	/**
	 * Returns the MCP revision the server is spoken to in.
	 * @return the protocol
	 */
	public McpProtocol protocol() {
		return McpProtocol.of(Objects.requireNonNull(this.server.protocol()));
	}

	/**
	 * Returns the lowest level of the log messages the server is asked to send.
	 * @return the level, or {@code null}
	 */
	public @Nullable LoggingLevel logLevel() {
		return this.server.logLevel();
	}

	/**
	 * Returns how a streamable-http server's requests are authorized with OAuth.
	 * @return the OAuth settings
	 */
	public McpSupervisorProperties.OAuth oauth() {
		return this.server.oauth();
	}

	/**
	 * Returns the HTTP client settings of a streamable-http server.
	 * @return the settings, each one set
	 */
	public McpSupervisorProperties.Http http() {
		return this.server.http();
	}

	/**
	 * Returns how the server's tools are named for the model.
	 * @return the naming
	 */
	public McpToolNaming toolNames() {
		return Objects.requireNonNull(this.server.toolNames());
	}

	/**
	 * Returns what becomes of the server's tools while it is down.
	 * @return what becomes of them
	 */
	public ToolsWhenDown toolsWhenDown() {
		return Objects.requireNonNull(this.server.toolsWhenDown());
	}

	/**
	 * Returns the timeouts of the calls of some tools, by the tool's name on the server:
	 * the server's own merged with those of {@code mcp.defaults}.
	 * @return the timeouts
	 */
	public Map<String, Duration> callTimeouts() {
		return this.server.call().timeouts();
	}

	/**
	 * Returns whether a spare process of the server is kept ready: never for a
	 * streamable-http server, whose process is not the application's.
	 * @return whether it has a standby
	 */
	public boolean standby() {
		return transport() == McpTransportType.STDIO && Boolean.TRUE.equals(this.server.standby().enabled());
	}

	/**
	 * Returns what identifies how the server is reached: its transport, command line,
	 * environment (the names of inherited variables, not their values), working
	 * directory, URL, headers, protocol and authorization (registration, client, issuer,
	 * grant, scopes, on whose behalf). Two configurations that differ in any of them may
	 * list other tools. It is a SHA-256: the secrets it covers are not in it.
	 * @return the fingerprint
	 */
	public String fingerprint() {
		Server s = this.server;
		OAuth oauth = s.oauth();
		return Fingerprint.of("server", List.of(String.valueOf(transport()), String.valueOf(s.command())), s.args(),
				Fingerprint.flat(s.env()), (s.inheritEnv() != null) ? s.inheritEnv() : List.of(),
				List.of(String.valueOf(s.workingDirectory()), String.valueOf(s.url())), Fingerprint.flat(s.headers()),
				List.of(String.valueOf(s.protocol()), String.valueOf(oauth.registration()),
						String.valueOf(oauth.clientId()), String.valueOf(oauth.issuer()),
						String.valueOf(oauth.grantType()), String.valueOf(oauth.actsFor()),
						String.valueOf(oauth.applicationRegistration())),
				oauth.scopes());
	}

	/**
	 * Returns whether the server is started by its first call rather than with the
	 * application.
	 * @return whether it starts on first use
	 */
	public boolean startOnFirstUse() {
		return Boolean.TRUE.equals(this.server.idle().startOnFirstUse());
	}

	/**
	 * Returns how long the server may go without a call before it is stopped.
	 * @return the idle time, or {@code null} when it is never stopped while unused
	 */
	public @Nullable Duration idleTimeout() {
		Duration timeout = this.server.idle().timeout();
		return (timeout != null && !timeout.isZero()) ? timeout : null;
	}

	/**
	 * Returns how to reach this server over Streamable HTTP.
	 * @return the definition
	 */
	public StreamableHttpServerDefinition toHttpDefinition() {
		return new StreamableHttpServerDefinition(this.name, Objects.requireNonNull(url()), headers(), requestTimeout(),
				initializationTimeout(), callTimeouts());
	}

	/**
	 * Returns how to run this server as a stdio process.
	 * @return the definition
	 */
	public StdioServerDefinition toStdioDefinition() {
		return new StdioServerDefinition(this.name, String.valueOf(command()), args(), env(), workingDirectory(),
				requestTimeout(), initializationTimeout(), terminationGracePeriod(), inheritEnv(), callTimeouts());
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof McpServerSettings that && this.name.equals(that.name)
				&& this.server.equals(that.server));
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.server);
	}

	/**
	 * Describes the server as it may be logged: how it is run or reached as its
	 * definition describes it (command line and URL masked, variables and headers by name
	 * only), and its policies.
	 * @return the description
	 */
	@Override
	public String toString() {
		Object definition = (transport() == McpTransportType.STDIO || url() == null) ? toStdioDefinition()
				: toHttpDefinition();
		return "McpServerSettings[transport=" + transport() + ", protocol=" + protocol() + ", logLevel=" + logLevel()
				+ (oauth().isEnabled() ? ", oauth=" + oauth() : "") + ", " + definition + ", roots=" + roots()
				+ ", failOnStartupError=" + failOnStartupError() + ", required=" + required() + ", reconnect="
				+ reconnect() + ", call=" + call() + ", healthCheck=" + healthCheck() + ", sampling=" + sampling()
				+ ", elicitation=" + elicitation() + (standby() ? ", standby=true" : "")
				+ ((transport() == McpTransportType.STREAMABLE_HTTP) ? ", http=" + http() : "") + "]";
	}

}
