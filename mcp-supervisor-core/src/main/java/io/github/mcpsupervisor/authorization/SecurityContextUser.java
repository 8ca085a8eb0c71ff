package io.github.mcpsupervisor.authorization;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The user of the calling thread's Spring Security context; loaded only when Spring
 * Security is on the class path.
 */
final class SecurityContextUser {

	private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

	private SecurityContextUser() {
	}

	static @Nullable String current() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || !authentication.isAuthenticated() || TRUST.isAnonymous(authentication)) {
			return null;
		}
		return authentication.getName();
	}

}
