package io.github.mcpsupervisor.e2e.authorization;

import java.time.Duration;

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

	private @Nullable TestAuthorizationServer authorization;

	private @Nullable ProtectedMcpServer mcp;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.authorization = new TestAuthorizationServer(Duration.ofMinutes(5));
	}

	@Override
	public void afterAll(ExtensionContext context) {
		authorization().close();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.mcp = new ProtectedMcpServer(authorization());
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		protectedServer().close();
	}

	TestAuthorizationServer authorization() {
		TestAuthorizationServer current = this.authorization;
		if (current == null) {
			throw new IllegalStateException("the authorization server starts before the test class");
		}
		return current;
	}

	ProtectedMcpServer protectedServer() {
		ProtectedMcpServer current = this.mcp;
		if (current == null) {
			throw new IllegalStateException("the protected MCP server starts before each test");
		}
		return current;
	}

}
