package io.github.mcpsupervisor.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts the JVM's platform threads once their number has settled, by role (the thread
 * name without its numbers). Idle threads of the JDK's process reaper pool, kept for a
 * minute after the process they waited for ended, are not counted: a reaper waiting for a
 * live process is named after it.
 */
final class ThreadCensus {

	private ThreadCensus() {
	}

	static int count() {
		long idleReapers = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals("process reaper"))
			.count();
		return ManagementFactory.getThreadMXBean().getThreadCount() - (int) idleReapers;
	}

	/**
	 * Waits until the thread count has not fallen for longer than idle pool threads are
	 * kept (5 s), at most the bound, and returns it.
	 * @param bound the longest wait
	 * @return the settled count
	 * @throws InterruptedException if interrupted while waiting
	 */
	static int settled(Duration bound) throws InterruptedException {
		long deadline = System.nanoTime() + bound.toNanos();
		int last = count();
		int stable = 0;
		while (stable < 24 && System.nanoTime() < deadline) {
			Thread.sleep(250);
			int now = count();
			stable = (now < last) ? 0 : stable + 1;
			last = Math.min(last, now);
		}
		return count();
	}

	/**
	 * Returns how many live threads play each role.
	 * @return role to count, in name order
	 */
	static Map<String, Integer> roles() {
		Map<String, Integer> roles = new TreeMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (thread.getName().equals("process reaper")) {
				continue;
			}
			roles.merge(thread.getName().replaceAll("\\d+", "#"), 1, Integer::sum);
		}
		return roles;
	}

	/**
	 * Describes the roles that have at least the given number of threads.
	 * @param atLeast the smallest count shown
	 * @return one {@code role=count} per role
	 */
	static String describe(int atLeast) {
		StringBuilder text = new StringBuilder();
		roles().forEach((role, count) -> {
			if (count >= atLeast) {
				text.append((text.length() > 0) ? ", " : "").append(role).append('=').append(count);
			}
		});
		return text.toString();
	}

}
