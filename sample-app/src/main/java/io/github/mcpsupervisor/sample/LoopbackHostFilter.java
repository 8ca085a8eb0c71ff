package io.github.mcpsupervisor.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers only requests whose {@code Host} header names one of the allowed hosts, so that
 * a web page whose own name a DNS rebinding points at this machine cannot call the
 * sample's tools and operations and read their answers: its requests carry its own name.
 * Other requests get {@code 421 Misdirected Request}.
 */
class LoopbackHostFilter extends OncePerRequestFilter {

	private static final int MISDIRECTED_REQUEST = 421;

	private final Set<String> allowedHosts;

	LoopbackHostFilter(Set<String> allowedHosts) {
		this.allowedHosts = allowedHosts.stream()
			.map((host) -> host.toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String host = hostOf(request.getHeader(HttpHeaders.HOST));
		if (host != null && this.allowedHosts.contains(host)) {
			chain.doFilter(request, response);
			return;
		}
		response.setStatus(MISDIRECTED_REQUEST);
		response.setContentType(MediaType.TEXT_PLAIN_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8);
		response.getWriter()
			.write("This application answers requests for "
					+ String.join(", ", this.allowedHosts.stream().sorted().toList())
					+ " only (sample.allowed-hosts)\n");
	}

	// The host of a Host header without its port, lower case; an IPv6 literal keeps its
	// brackets. Null when there is none.
	static @Nullable String hostOf(@Nullable String header) {
		if (header == null || header.isBlank()) {
			return null;
		}
		String value = header.strip().toLowerCase(Locale.ROOT);
		if (value.startsWith("[")) {
			int end = value.indexOf(']');
			return (end < 0) ? null : value.substring(0, end + 1);
		}
		int colon = value.indexOf(':');
		return (colon < 0) ? value : value.substring(0, colon);
	}

}
