package io.github.mcpsupervisor.sample;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample application.
 *
 * @param allowedHosts The names a request's Host header may carry (without the port), by
 * default localhost, 127.0.0.1 and [::1]; requests for any other host, such as a
 * DNS-rebound name, get 421 Misdirected Request
 * @param oauthDemo The demo OAuth servers that the {@code replicas} profile runs
 */
@ConfigurationProperties("sample")
record SampleProperties(@Nullable Set<String> allowedHosts, @DefaultValue OAuthDemo oauthDemo) {

	/** The loopback names, the default of {@code allowedHosts}. */
	static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

	SampleProperties {
		allowedHosts = (allowedHosts == null || allowedHosts.isEmpty()) ? LOOPBACK : Set.copyOf(allowedHosts);
	}

	@Override
	public Set<String> allowedHosts() {
		return Objects.requireNonNull(this.allowedHosts);
	}

	/**
	 * The demo OAuth servers ({@link DemoOAuthServers}): an authorization server and an
	 * MCP server its tokens protect, on loopback. The first instance of the sample that
	 * finds none on these ports starts them; the others use those.
	 *
	 * @param enabled Whether the sample runs them and uses them (the {@code replicas}
	 * profile turns it on)
	 * @param authorizationServerPort The port of the authorization server, 0 for a free
	 * one (never shared then)
	 * @param protectedServerPort The port of the protected MCP server, 0 for a free one
	 * (never shared then)
	 * @param accessTokenLifetime How long the access tokens the authorization server
	 * issues live; the supervisor renews them with their refresh token
	 */
	record OAuthDemo(@DefaultValue("false") boolean enabled, @DefaultValue("9000") int authorizationServerPort,
			@DefaultValue("9001") int protectedServerPort, @DefaultValue("5m") Duration accessTokenLifetime) {

	}

}
