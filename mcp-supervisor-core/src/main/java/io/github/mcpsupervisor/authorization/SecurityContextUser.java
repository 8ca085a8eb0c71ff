package io.github.mcpsupervisor.authorization;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.AuthenticatedPrincipal;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;

/**
 * The user of the calling thread's Spring Security context; loaded only when Spring
 * Security is on the class path.
 */
final class SecurityContextUser {

	private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

	private SecurityContextUser() {
	}

	// The name of a principal of Spring Security's that is not a java.security.Principal.
	static @Nullable String nameOf(Object principal) {
		if (principal instanceof AuthenticatedPrincipal authenticated) {
			return authenticated.getName();
		}
		return (principal instanceof UserDetails details) ? details.getUsername() : null;
	}

	static @Nullable String current() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || !authentication.isAuthenticated() || TRUST.isAnonymous(authentication)) {
			return null;
		}
		return authentication.getName();
	}

}
