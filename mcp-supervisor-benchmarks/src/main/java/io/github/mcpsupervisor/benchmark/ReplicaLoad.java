package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.jspecify.annotations.Nullable;

/**
 * Calls {@code echo} on every replica at once, from a few callers each that start a call
 * every interval (at once after a call that took longer), for a while: the calls that
 * succeeded, those that failed (an exception, an error result or another text than the
 * echo), and each replica's latencies. Paced rather than back to back: the protected
 * server keeps every request it received, and hundreds of thousands of them would make
 * its list, copied at each request, the measure.
 */
final class ReplicaLoad {

	private final List<McpServerSupervisor> supervisors;

	private final int callersPerReplica;

	private final Duration interval;

	private final List<List<Double>> latencies = new ArrayList<>();

	private final AtomicLong failed = new AtomicLong();

	// each kind of failure once, with how many times it came
	private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();

	ReplicaLoad(List<McpServerSupervisor> supervisors, int callersPerReplica, Duration interval) {
		this.supervisors = supervisors;
		this.callersPerReplica = callersPerReplica;
		this.interval = interval;
		supervisors.forEach((supervisor) -> this.latencies.add(new ArrayList<>()));
	}

	void run(Duration duration) throws InterruptedException {
		long deadline = System.nanoTime() + duration.toNanos();
		List<Thread> callers = new ArrayList<>();
		List<List<Double>> samples = new ArrayList<>();
		for (int replica = 0; replica < this.supervisors.size(); replica++) {
			for (int i = 0; i < this.callersPerReplica; i++) {
				List<Double> own = new ArrayList<>();
				samples.add(own);
				McpServerSupervisor supervisor = this.supervisors.get(replica);
				String name = "replica-" + replica + "-caller-" + i;
				callers.add(new Thread(() -> call(supervisor, name, deadline, own), name));
			}
		}
		callers.forEach(Thread::start);
		for (int i = 0; i < callers.size(); i++) {
			callers.get(i).join();
			this.latencies.get(i / this.callersPerReplica).addAll(samples.get(i));
		}
	}

	private void call(McpServerSupervisor supervisor, String name, long deadline, List<Double> latencies) {
		long sequence = 0;
		long next = System.nanoTime();
		while (next < deadline) {
			LockSupport.parkNanos(next - System.nanoTime());
			String message = name + " " + sequence++;
			long started = System.nanoTime();
			next = Math.max(started, next) + this.interval.toNanos();
			@Nullable String failure;
			try {
				failure = failure(supervisor.callTool(BenchmarkServers.request("echo", Map.of("message", message))),
						"echo: " + message);
			}
			catch (RuntimeException ex) {
				failure = ex.getClass().getSimpleName() + ": " + ex.getMessage();
			}
			latencies.add(BenchmarkServers.millis(System.nanoTime() - started));
			if (failure != null) {
				this.failed.incrementAndGet();
				this.failures.computeIfAbsent(failure, (key) -> new AtomicLong()).incrementAndGet();
			}
		}
	}

	private static @Nullable String failure(CallToolResult result, String expected) {
		if (Boolean.TRUE.equals(result.isError())) {
			return "an error result: " + result.content();
		}
		@Nullable String text = (!result.content().isEmpty() && result.content().get(0) instanceof TextContent content)
				? content.text() : null;
		return expected.equals(text) ? null : "another answer: " + text;
	}

	/**
	 * Returns the latencies of each replica's calls.
	 * @param replica the replica's index
	 * @return its calls' latencies in milliseconds
	 */
	List<Double> latencies(int replica) {
		return this.latencies.get(replica);
	}

	long calls() {
		return this.latencies.stream().mapToLong(List::size).sum();
	}

	long failed() {
		return this.failed.get();
	}

	/**
	 * Returns each kind of failure with its count.
	 * @return failure to count
	 */
	Map<String, Long> failures() {
		Map<String, Long> counts = new ConcurrentHashMap<>();
		this.failures.forEach((failure, count) -> counts.put(failure, count.get()));
		return counts;
	}

}
