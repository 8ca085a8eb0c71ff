package io.github.mcpsupervisor.sample;

import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample application.
 *
 * @param allowedHosts The names a request's Host header may carry (without the port), by
 * default localhost, 127.0.0.1 and [::1]; requests for any other host, such as a
 * DNS-rebound name, get 421 Misdirected Request
 */
@ConfigurationProperties("sample")
record SampleProperties(@Nullable Set<String> allowedHosts) {

	/** The loopback names, the default of {@code allowedHosts}. */
	static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]");

	SampleProperties {
		allowedHosts = (allowedHosts == null || allowedHosts.isEmpty()) ? LOOPBACK : Set.copyOf(allowedHosts);
	}

	@Override
	public Set<String> allowedHosts() {
		return Objects.requireNonNull(this.allowedHosts);
	}

}
