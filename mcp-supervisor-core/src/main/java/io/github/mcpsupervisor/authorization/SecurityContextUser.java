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

	static boolean isAuthentication(Object principal) {
		return principal instanceof Authentication;
	}

	// The name of a principal of Spring Security's: none for an Authentication that is
	// anonymous or not authenticated.
	static @Nullable String nameOf(Object principal) {
		if (principal instanceof Authentication authentication) {
			return (authentication.isAuthenticated() && !TRUST.isAnonymous(authentication)) ? authentication.getName()
					: null;
		}
		if (principal instanceof AuthenticatedPrincipal authenticated) {
			return authenticated.getName();
		}
		return (principal instanceof UserDetails details) ? details.getUsername() : null;
	}

	static @Nullable String current() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return (authentication != null) ? nameOf(authentication) : null;
	}

}
