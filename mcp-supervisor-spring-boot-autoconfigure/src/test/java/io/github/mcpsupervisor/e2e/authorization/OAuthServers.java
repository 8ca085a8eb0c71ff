package io.github.mcpsupervisor.e2e.authorization;

import java.time.Duration;

import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The servers of the OAuth end-to-end tests, as a JUnit extension registered in a static
 * field: one authorization server for the test class, and a new protected MCP server for
 * each test.
 */
final class OAuthServers implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private @Nullable DemoAuthorizationServer authorization;

	private @Nullable ProtectedDemoMcpServer mcp;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.authorization = new DemoAuthorizationServer(Duration.ofMinutes(5));
	}

	@Override
	public void afterAll(ExtensionContext context) {
		authorization().close();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.mcp = new ProtectedDemoMcpServer(authorization());
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		protectedServer().close();
	}

	DemoAuthorizationServer authorization() {
		DemoAuthorizationServer current = this.authorization;
		if (current == null) {
			throw new IllegalStateException("the authorization server starts before the test class");
		}
		return current;
	}

	ProtectedDemoMcpServer protectedServer() {
		ProtectedDemoMcpServer current = this.mcp;
		if (current == null) {
			throw new IllegalStateException("the protected MCP server starts before each test");
		}
		return current;
	}

}
