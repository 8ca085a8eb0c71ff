package io.github.mcpsupervisor.supervisor;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Notifications queued under the supervisor's lock and delivered outside it, in the order
 * they were queued, one thread at a time: listeners see every transition in order and can
 * never deadlock the state machine.
 */
final class Outbox {

	private static final Log logger = LogFactory.getLog(Outbox.class);

	private final Queue<Runnable> notifications = new ConcurrentLinkedQueue<>();

	private final Object deliveryLock = new Object();

	private final String server;

	Outbox(String server) {
		this.server = server;
	}

	void add(Runnable notification) {
		this.notifications.add(notification);
	}

	/** Delivers the queued notifications; a failing listener is logged and skipped. */
	void flush() {
		synchronized (this.deliveryLock) {
			Runnable notification;
			while ((notification = this.notifications.poll()) != null) {
				try {
					notification.run();
				}
				catch (RuntimeException ex) {
					logger.warn("MCP server '" + this.server + "': a supervisor listener failed", ex);
				}
			}
		}
	}

}
