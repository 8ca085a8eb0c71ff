package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.transport.internal.http.authorization.MetadataDiscovery.AuthorizationServer;
import io.github.mcpsupervisor.transport.internal.http.authorization.MetadataDiscovery.ProtectedResource;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MetadataDiscovery} against documents served on loopback.
 */
class MetadataDiscoveryTests {

	private static final int STALLING = -1;

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final CountDownLatch released = new CountDownLatch(1);

	private final Map<String, Answer> answers = new ConcurrentHashMap<>();

	private final List<String> requested = new CopyOnWriteArrayList<>();

	private HttpServer server;

	private String base;

	private MetadataDiscovery discovery;

	@BeforeEach
	void serve() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String path = exchange.getRequestURI().getRawPath();
			this.requested.add(path);
			Answer answer = this.answers.getOrDefault(path, new Answer(404, "{}"));
			if (answer.status() == STALLING) {
				exchange.sendResponseHeaders(200, 100);
				exchange.getResponseBody().write('{');
				exchange.getResponseBody().flush();
				try {
					// a server that stalls mid-answer until the test ends
					this.released.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				exchange.close();
				return;
			}
			byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(answer.status(), body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
		this.base = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.discovery = new MetadataDiscovery(HttpClient.newHttpClient(), McpJsonDefaults.getMapper(),
				Duration.ofSeconds(5));
	}

	@AfterEach
	void stop() {
		this.released.countDown();
		this.server.stop(0);
	}

	@Test
	void onlyThisMachineIsALoopbackAddressNotAHostThatStartsLikeOne() {
		assertThat(List.of("http://localhost:9000/", "http://127.0.0.1:9000/", "http://127.1.2.3/",
				"http://[::1]:9000/", "http://[0:0:0:0:0:0:0:1]/"))
			.allSatisfy((url) -> assertThat(MetadataDiscovery.isLoopback(URI.create(url))).as(url).isTrue());
		assertThat(List.of("http://127.evil.example/", "http://127.0.0.1.nip.io/", "http://localhost.example/",
				"http://10.0.0.1/", "http://[::2]/", "http://999.0.0.1/", "file:/etc/passwd"))
			.allSatisfy((url) -> assertThat(MetadataDiscovery.isLoopback(URI.create(url))).as(url).isFalse());
	}

	@Test
	void theMetadataTheChallengeNamesIsTheOneRead() {
		serve("/custom/metadata.json", 200, "{\"resource\":\"" + this.base + "/mcp\",\"authorization_servers\":[\""
				+ this.base + "/tenant1\"],\"scopes_supported\":[\"mcp:basic\"]}");
		serve("/.well-known/oauth-protected-resource/mcp", 200, "{\"resource\":\"" + this.base + "/mcp\"}");
		ProtectedResource resource = this.discovery.protectedResource(mcp(), challenge("/custom/metadata.json"));
		assertThat(resource).isEqualTo(
				new ProtectedResource(this.base + "/mcp", List.of(this.base + "/tenant1"), List.of("mcp:basic")));
		assertThat(this.requested).containsExactly("/custom/metadata.json");
	}

	@Test
	void withoutAChallengeThePathAwareUrlIsTriedFirstThenTheRoot() {
		serve("/.well-known/oauth-protected-resource", 200,
				"{\"resource\":\"" + this.base + "\",\"authorization_servers\":[\"" + this.base + "\"]}");
		ProtectedResource resource = this.discovery.protectedResource(mcp(), null);
		assertThat(resource.resource()).as("a resource the server's URL is under").isEqualTo(this.base);
		assertThat(this.requested).containsExactly("/.well-known/oauth-protected-resource/mcp",
				"/.well-known/oauth-protected-resource");
	}

	@Test
	void metadataForAnotherResourceIsNotTrusted() {
		for (String other : List.of("https://evil.example.com/mcp", this.base + "/other", this.base + "/mcp/deeper",
				"http://127.0.0.2:" + this.server.getAddress().getPort() + "/mcp")) {
			serve("/.well-known/oauth-protected-resource/mcp", 200,
					"{\"resource\":\"" + other + "\",\"authorization_servers\":[\"" + this.base + "\"]}");
			assertThatExceptionOfType(AuthorizationDiscoveryException.class)
				.isThrownBy(() -> this.discovery.protectedResource(mcp(), null))
				.withMessageContaining("is for resource '" + other + "', not for " + this.base + "/mcp");
		}
	}

	@Test
	void theAuthorizationServersMetadataIsLookedUpInOrderAndItsIssuerMustBeTheOneAskedFor() {
		String issuer = this.base + "/tenant1";
		serve("/tenant1/.well-known/openid-configuration", 200,
				"{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + this.base + "/authorize\","
						+ "\"token_endpoint\":\"" + this.base + "/token\",\"code_challenge_methods_supported\":"
						+ "[\"S256\"],\"token_endpoint_auth_methods_supported\":[\"none\"],"
						+ "\"authorization_response_iss_parameter_supported\":true}");
		AuthorizationServer found = this.discovery.authorizationServer(issuer);
		assertThat(found.tokenEndpoint()).isEqualTo(URI.create(this.base + "/token"));
		assertThat(found.supportsAuthorizationCodeWithPkce()).isTrue();
		assertThat(found.issInAuthorizationResponse()).isTrue();
		assertThat(found.tokenEndpointAuthMethods()).containsExactly("none");
		assertThat(this.requested).containsExactly("/.well-known/oauth-authorization-server/tenant1",
				"/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer(issuer + "/"))
			.withMessageContaining("is for issuer '" + issuer + "', not '" + issuer + "/'");
	}

	@Test
	void aServerWithoutS256CannotBeUsedForTheAuthorizationCodeGrant() {
		serve("/.well-known/oauth-authorization-server", 200,
				"{\"issuer\":\"" + this.base + "\",\"authorization_endpoint\":\"" + this.base
						+ "/authorize\",\"token_endpoint\":\"" + this.base + "/token\"}");
		assertThat(this.discovery.authorizationServer(this.base).supportsAuthorizationCodeWithPkce()).isFalse();
	}

	@Test
	void anAnswerThatIsNotA4xxEndsTheSearch() {
		serve("/.well-known/oauth-authorization-server", 503, "{}");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer(this.base))
			.withMessageEndingWith("/.well-known/oauth-authorization-server answered HTTP 503");
		serve("/.well-known/oauth-authorization-server", 200,
				"{\"issuer\":\"" + this.base + "\",\"pad\":\"" + "x".repeat(MetadataDiscovery.MAX_BYTES) + "\"}");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer(this.base))
			.withMessageContaining("is larger than 65536 bytes");
		assertThat(this.requested).doesNotContain("/.well-known/openid-configuration");
		this.answers.clear();
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer(this.base))
			.withMessageContaining("no authorization server metadata found: ")
			.withMessageContaining("/.well-known/openid-configuration (HTTP 404)");
	}

	@Test
	void anAnswerIsReadWithinTheTimeoutAsAWhole() {
		serve("/.well-known/oauth-authorization-server", STALLING, "");
		MetadataDiscovery impatient = new MetadataDiscovery(HttpClient.newHttpClient(), McpJsonDefaults.getMapper(),
				Duration.ofMillis(500));
		long started = System.nanoTime();
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> impatient.authorizationServer(this.base))
			.withMessageEndingWith("/.well-known/oauth-authorization-server was not read within 500 ms");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
	}

	@Test
	void whatIsNotAJsonObjectIsRefusedAsSuch() {
		for (String body : List.of("null", "[1]", "", "{\"issuer\":")) {
			serve("/.well-known/oauth-authorization-server", 200, body);
			assertThatExceptionOfType(AuthorizationDiscoveryException.class)
				.isThrownBy(() -> this.discovery.authorizationServer(this.base))
				.withMessageEndingWith("/.well-known/oauth-authorization-server is not a JSON object");
		}
	}

	@Test
	void anAuthorizationServerMustBeHttpsUnlessOnLoopback() {
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer("http://auth.example.com"))
			.withMessage("the issuer is not an https URL (or http on a loopback address): 'http://auth.example.com'");
		serve("/.well-known/oauth-authorization-server", 200,
				"{\"issuer\":\"" + this.base + "\",\"token_endpoint\":\"http://auth.example.com/token\"}");
		assertThatExceptionOfType(AuthorizationDiscoveryException.class)
			.isThrownBy(() -> this.discovery.authorizationServer(this.base))
			.withMessageStartingWith("token_endpoint is not an https URL");
		assertThat(this.requested).as("nothing is fetched from an issuer refused").hasSize(1);
	}

	@Test
	void aChallengesMetadataUrlThatIsNotUsableGivesWayToTheWellKnownOnes() {
		serve("/.well-known/oauth-protected-resource/mcp", 200,
				"{\"resource\":\"" + this.base + "/mcp\",\"authorization_servers\":[\"" + this.base + "\"]}");
		for (String unusable : List.of("https", "https://bad_host/x", "ftp://127.0.0.1/x")) {
			this.requested.clear();
			this.discovery.protectedResource(mcp(), new BearerChallenge(null, null, List.of(), unusable));
			assertThat(this.requested).containsExactly("/.well-known/oauth-protected-resource/mcp");
		}
	}

	@Test
	void aResourceWithAnotherQueryOrUserInformationIsNotTheServers() {
		for (String other : List.of(this.base + "/mcp?tenant=evil",
				"http://evil.example.com@127.0.0.1:" + this.server.getAddress().getPort() + "/mcp")) {
			serve("/.well-known/oauth-protected-resource/mcp", 200,
					"{\"resource\":\"" + other + "\",\"authorization_servers\":[\"" + this.base + "\"]}");
			assertThatExceptionOfType(AuthorizationDiscoveryException.class)
				.isThrownBy(() -> this.discovery.protectedResource(mcp(), null))
				.withMessageContaining("is for resource");
		}
	}

	private URI mcp() {
		return URI.create(this.base + "/mcp");
	}

	private BearerChallenge challenge(String metadataPath) {
		return new BearerChallenge(null, null, List.of(), this.base + metadataPath);
	}

	private void serve(String path, int status, String body) {
		this.answers.put(path, new Answer(status, body));
	}

	private record Answer(int status, String body) {

	}

}
