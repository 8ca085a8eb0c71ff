package io.github.mcpsupervisor.e2e.authorization;

import java.time.Duration;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.e2e.FullCommonPool;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * OAuth for a streamable-http server of each revision while the application's own tasks
 * hold every worker of the common {@link java.util.concurrent.ForkJoinPool}: the
 * discovery of the server's authorization server, the client-credentials token and the
 * calls all complete while the pool is still full. Run by the failsafe execution
 * {@code shared-pool}, in a JVM that sees 4 CPUs.
 */
class SharedPoolOAuthIT {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	static final OAuthServers servers = new OAuthServers();

	@ParameterizedTest
	@CsvSource({ "/mcp, 2026-07-28", "/legacy, 2025-11-25" })
	void aServerIsDiscoveredAuthorizedAndCalledWhileThePoolIsFull(String path, String protocol) throws Exception {
		int issuedBefore = servers.authorization().tokensIssued("client_credentials");
		try (FullCommonPool pool = FullCommonPool.fill()) {
			contextRunner(path, protocol).run((context) -> {
				McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor("remote");
				await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
				CallToolRequest echo = CallToolRequest.builder("echo")
					.arguments(java.util.Map.of("message", "full"))
					.build();
				assertThat(((TextContent) supervisor.callTool(echo).content().get(0)).text()).isEqualTo("echo: full");
				assertThat(servers.authorization().tokensIssued("client_credentials")).isEqualTo(issuedBefore + 1);
				assertThat(pool.isFull()).as("authorized while the application held the pool").isTrue();
			});
		}
	}

	private ApplicationContextRunner contextRunner(String path, String protocol) {
		String client = "spring.security.oauth2.client.registration.service.";
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OAuth2ClientAutoConfiguration.class,
					McpAuthorizationAutoConfiguration.class, McpSupervisorAutoConfiguration.class))
			.withPropertyValues(client + "provider=test", client + "client-id=service",
					client + "client-secret=" + DemoAuthorizationServer.SERVICE_SECRET,
					client + "client-authentication-method=client_secret_basic",
					client + "authorization-grant-type=client_credentials", client + "scope=mcp:read",
					"spring.security.oauth2.client.provider.test.issuer-uri=" + servers.authorization().issuer(),
					"mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=" + servers.protectedServer().url(path),
					"mcp.servers.remote.protocol=" + protocol, "mcp.servers.remote.oauth.registration=service",
					"mcp.servers.remote.reconnect.initial-delay=100ms");
	}

}
