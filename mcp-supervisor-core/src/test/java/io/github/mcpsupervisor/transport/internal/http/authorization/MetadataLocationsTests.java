package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MetadataLocations} and {@link ResourceIndicator}.
 */
class MetadataLocationsTests {

	@Test
	void protectedResourceMetadataIsLookedUpWithThePathFirstThenAtTheRoot() {
		assertThat(MetadataLocations.protectedResource(URI.create("https://mcp.example.com:8443/v1/mcp/")))
			.containsExactly(URI.create("https://mcp.example.com:8443/.well-known/oauth-protected-resource/v1/mcp"),
					URI.create("https://mcp.example.com:8443/.well-known/oauth-protected-resource"));
		assertThat(MetadataLocations.protectedResource(URI.create("http://127.0.0.1:3000")))
			.containsExactly(URI.create("http://127.0.0.1:3000/.well-known/oauth-protected-resource"));
		assertThat(MetadataLocations.protectedResource(URI.create("https://mcp.example.com/mcp?tenant=a")))
			.as("the query kept (RFC 9728 section 3.1)")
			.containsExactly(URI.create("https://mcp.example.com/.well-known/oauth-protected-resource/mcp?tenant=a"),
					URI.create("https://mcp.example.com/.well-known/oauth-protected-resource"));
	}

	@Test
	void authorizationServerMetadataIsLookedUpInTheSpecificationsOrder() {
		assertThat(MetadataLocations.authorizationServer(URI.create("https://auth.example.com/tenant1")))
			.containsExactly(URI.create("https://auth.example.com/.well-known/oauth-authorization-server/tenant1"),
					URI.create("https://auth.example.com/.well-known/openid-configuration/tenant1"),
					URI.create("https://auth.example.com/tenant1/.well-known/openid-configuration"));
		assertThat(MetadataLocations.authorizationServer(URI.create("https://auth.example.com/"))).containsExactly(
				URI.create("https://auth.example.com/.well-known/oauth-authorization-server"),
				URI.create("https://auth.example.com/.well-known/openid-configuration"));
	}

	@Test
	void theResourceIsTheServersCanonicalUri() {
		assertThat(ResourceIndicator.of(URI.create("HTTPS://MCP.Example.COM:8443/Path/mcp/?tenant=a#part")))
			.isEqualTo("https://mcp.example.com:8443/Path/mcp?tenant=a");
		assertThat(ResourceIndicator.of(URI.create("https://token:s3cret@mcp.example.com/mcp")))
			.as("the server's credentials do not go to the authorization server")
			.isEqualTo("https://mcp.example.com/mcp");
		assertThat(ResourceIndicator.of(URI.create("http://[::1]:3000/"))).isEqualTo("http://[::1]:3000");
	}

	@Test
	void aUrlThatIsNotAbsoluteHttpIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceIndicator.of(URI.create("/mcp")));
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceIndicator.of(URI.create("file:///srv")));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MetadataLocations.authorizationServer(URI.create("tenant1")));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> MetadataLocations.protectedResource(URI.create("ftp://files.example.com/mcp")));
	}

}
