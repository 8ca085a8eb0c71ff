package io.github.mcpsupervisor.autoconfigure.properties;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ElicitationLimits;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import org.jspecify.annotations.Nullable;

/**
 * The effective settings of one configured MCP server: its own values, and for each one
 * it does not set, the value of {@code mcp.defaults}, as resolved by
 * {@link McpServerSettingsResolver}; what it inherits is given as the supervisor's
 * policies.
 *
 * @param name the server's name, its key in {@code mcp.servers}
 * @param transport how the server is reached
 * @param command the executable of a stdio server
 * @param args its arguments
 * @param env environment variables added to the inherited ones
 * @param workingDirectory the working directory, or {@code null} for the application's
 * @param url the MCP endpoint of a streamable-http server
 * @param headers HTTP headers of a streamable-http server
 * @param roots the roots offered to the server, absolute file: URIs
 * @param requestTimeout timeout of each tool call and tool listing
 * @param initializationTimeout timeout of the initialize handshake
 * @param terminationGracePeriod how long the server may take to exit after SIGTERM
 * @param failOnStartupError whether a failed first attempt aborts the start
 * @param required whether the health is DOWN while this server is not UP
 * @param reconnect how a lost server is reconnected
 * @param call how tool calls behave around outages
 * @param healthCheck the liveness probe
 * @param sampling the bounds of the server's sampling requests
 * @param elicitation the bounds of the server's elicitation requests
 * @param inheritEnv the variables of the application's environment that a stdio server
 * inherits besides those every process needs
 * @param protocol the MCP revision the server is spoken to in
 * @param logLevel the lowest level of the log messages the server is asked to send, or
 * {@code null}
 * @param oauth how a streamable-http server's requests are authorized with OAuth
 * @param http the HTTP client settings of a streamable-http server
 * @param toolNames how the server's tools are named for the model
 * @param toolsWhenDown what becomes of the server's tools while it is down
 * @param callTimeouts the timeouts of the calls of some tools, by the tool's name on the
 * server, in place of the request timeout: the server's own merged with those of
 * {@code mcp.defaults}
 * @param standby whether a spare process of the server is kept ready (always
 * {@code false} for a streamable-http server)
 * @since 0.1.0
 */
public record McpServerSettings(String name, McpTransportType transport, @Nullable String command, List<String> args,
		Map<String, String> env, @Nullable Path workingDirectory, @Nullable URI url, Map<String, String> headers,
		List<URI> roots, Duration requestTimeout, Duration initializationTimeout, Duration terminationGracePeriod,
		boolean failOnStartupError, boolean required, ReconnectPolicy reconnect, CallPolicy call,
		HealthCheckPolicy healthCheck, SamplingLimits sampling, ElicitationLimits elicitation, List<String> inheritEnv,
		McpProtocol protocol, @Nullable LoggingLevel logLevel, McpSupervisorProperties.OAuth oauth,
		McpSupervisorProperties.Http http, McpToolNaming toolNames, ToolsWhenDown toolsWhenDown,
		Map<String, Duration> callTimeouts, boolean standby) {

	/**
	 * Returns how to reach this server over Streamable HTTP.
	 * @return the definition
	 */
	public StreamableHttpServerDefinition toHttpDefinition() {
		return new StreamableHttpServerDefinition(this.name, Objects.requireNonNull(this.url), this.headers,
				this.requestTimeout, this.initializationTimeout, this.callTimeouts);
	}

	/**
	 * Returns how to run this server as a stdio process.
	 * @return the definition
	 */
	public StdioServerDefinition toStdioDefinition() {
		return new StdioServerDefinition(this.name, String.valueOf(this.command), this.args, this.env,
				this.workingDirectory, this.requestTimeout, this.initializationTimeout, this.terminationGracePeriod,
				this.inheritEnv, this.callTimeouts);
	}

	/**
	 * Describes the server as it may be logged: how it is run or reached as its
	 * definition describes it (command line and URL masked, variables and headers by name
	 * only), and its policies.
	 * @return the description
	 */
	@Override
	public String toString() {
		Object definition = (this.transport == McpTransportType.STDIO || this.url == null) ? toStdioDefinition()
				: toHttpDefinition();
		return "McpServerSettings[transport=" + this.transport + ", protocol=" + this.protocol + ", logLevel="
				+ this.logLevel + (this.oauth.isEnabled() ? ", oauth=" + this.oauth : "") + ", " + definition
				+ ", roots=" + this.roots + ", failOnStartupError=" + this.failOnStartupError + ", required="
				+ this.required + ", reconnect=" + this.reconnect + ", call=" + this.call + ", healthCheck="
				+ this.healthCheck + ", sampling=" + this.sampling + ", elicitation=" + this.elicitation
				+ (this.standby ? ", standby=true" : "")
				+ ((this.transport == McpTransportType.STREAMABLE_HTTP) ? ", http=" + this.http : "") + "]";
	}

}
