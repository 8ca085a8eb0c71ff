package io.github.mcpsupervisor.supervisor;

import java.util.concurrent.CancellationException;

/**
 * Reads the causes of a failed call.
 */
final class Failures {

	private Failures() {
	}

	// Whether the caller was cancelled or interrupted: such a call is never retried.
	static boolean isCancellation(Throwable ex) {
		return Thread.currentThread().isInterrupted() || hasCause(ex, InterruptedException.class)
				|| hasCause(ex, CancellationException.class);
	}

	static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}

}
