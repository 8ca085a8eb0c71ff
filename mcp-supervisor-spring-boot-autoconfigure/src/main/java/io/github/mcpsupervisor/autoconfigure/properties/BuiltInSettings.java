package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Call;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Cooldown;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Elicitation;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.HealthCheck;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Http;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Idle;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Proxy;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Reconnect;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Sampling;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Ssl;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Standby;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;

/**
 * The built-in value of every setting: what {@code mcp.defaults} inherits when it does
 * not set it. The configuration metadata gives these values as the defaults of
 * {@code mcp.defaults.*}, and the reference documents them; tests hold both to this
 * class.
 */
final class BuiltInSettings {

	/** The built-in settings; those a server only can set are not set. */
	static final Server SERVER = new Server(true, McpTransportType.STDIO, null, List.of(), Map.of(), null, null,
			Map.of(), List.of(), Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(2), false, false,
			new Reconnect(true, Duration.ofMillis(500), Duration.ofSeconds(30), 10, 0.5,
					new Cooldown(false, Duration.ofMinutes(5), Duration.ofMinutes(30))),
			new Call(Duration.ofSeconds(5), CallPolicy.Retry.SAFE, true, Set.of(), Map.of()),
			new HealthCheck(Duration.ofSeconds(30), Duration.ofSeconds(5), 2), new Sampling(2, 10, 4096),
			new Elicitation(2, 10), List.of(), "auto", null, OAuth.NONE,
			new Http(Duration.ofSeconds(10), McpHttpVersion.HTTP_1_1, new Ssl(null), new Proxy(null, null)),
			McpToolNaming.PREFIXED, ToolsWhenDown.WITHDRAW, new Standby(false), new Idle(false, null));

	private BuiltInSettings() {
	}

}
