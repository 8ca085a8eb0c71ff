package io.github.mcpsupervisor.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Captures {@code System.out} and {@code System.err} during each test and gives them to a
 * {@link CapturedOutput} parameter, as Spring Boot's {@code OutputCaptureExtension} does:
 * the core's tests run without Spring Boot on their class path.
 */
public class OutputCaptureExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

	private static final Namespace NAMESPACE = Namespace.create(OutputCaptureExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(NAMESPACE).put(Capture.class, new Capture());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		context.getStore(NAMESPACE).remove(Capture.class, Capture.class).release();
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return CapturedOutput.class.equals(parameterContext.getParameter().getType());
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return extensionContext.getStore(NAMESPACE).get(Capture.class, Capture.class);
	}

	/** The streams of one test, written through to the original ones. */
	private static final class Capture implements CapturedOutput {

		// what a PrintStream made without a charset writes with, as System.out does here
		private static final Charset CHARSET = Charset.defaultCharset();

		private final PrintStream out = System.out;

		private final PrintStream err = System.err;

		private final ByteArrayOutputStream all = new ByteArrayOutputStream();

		private final ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();

		private final ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();

		Capture() {
			System.setOut(new PrintStream(new Tee(this.out, this.capturedOut), true, CHARSET));
			System.setErr(new PrintStream(new Tee(this.err, this.capturedErr), true, CHARSET));
		}

		void release() {
			System.setOut(this.out);
			System.setErr(this.err);
		}

		@Override
		public String getAll() {
			return text(this.all);
		}

		@Override
		public String getOut() {
			return text(this.capturedOut);
		}

		@Override
		public String getErr() {
			return text(this.capturedErr);
		}

		@Override
		public String toString() {
			return getAll();
		}

		private String text(ByteArrayOutputStream bytes) {
			synchronized (this.all) {
				return bytes.toString(CHARSET);
			}
		}

		/** Writes to the original stream and records what it wrote. */
		private final class Tee extends OutputStream {

			private final PrintStream original;

			private final ByteArrayOutputStream captured;

			Tee(PrintStream original, ByteArrayOutputStream captured) {
				this.original = original;
				this.captured = captured;
			}

			@Override
			public void write(int b) {
				synchronized (Capture.this.all) {
					this.captured.write(b);
					Capture.this.all.write(b);
				}
				this.original.write(b);
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				synchronized (Capture.this.all) {
					this.captured.write(bytes, offset, length);
					Capture.this.all.write(bytes, offset, length);
				}
				this.original.write(bytes, offset, length);
			}

			@Override
			public void flush() {
				this.original.flush();
			}

		}

	}

}
