import 'reflect-metadata';
import { ConfigError } from '@platform/config';
import { AppError } from '@platform/errors';
import { adminProgram } from './admin-program';

/** Exit 0 with one JSON object on stdout, or exit 1 with `{"error": ...}` on stderr. */
adminProgram()
  .parseAsync(process.argv)
  .then(
    () => process.exit(0),
    (error: unknown) => {
      const body =
        error instanceof AppError
          ? error.toBody()
          : error instanceof ConfigError
            ? { code: 'CONFIG_ERROR', message: error.message }
            : AppError.internal(String((error as Error)?.message ?? error)).toBody();
      process.stderr.write(`${JSON.stringify({ error: body })}\n`);
      process.exit(1);
    },
  );
