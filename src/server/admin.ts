/**
 * Onboarding from the command line, on the database the gateway uses (DATABASE_URL, else the embedded
 * database in DATA_DIR, which must not be open in a running gateway: use the operator API there).
 *
 *   npm run admin -- create-business --name 上海某某人力资源有限公司 --charge-form prepaid --service-packs attendance --tax-no 91310104MA1FL2XK3P
 *   npm run admin -- add-user --phone 13812345678 --business B10004 --role admin
 *   npm run admin -- invite --phone 13812345678 [--console-url https://console.example.com/]
 *   npm run admin -- unlock --phone 13812345678
 *
 * `--json` prints the result as one JSON line. Exit code 0 on success, 1 on a refusal (message on
 * stderr), 2 on a usage error. The set-password code goes out through the configured SMS provider
 * (SMS_HTTP_URL); without one it is refused (in APP_ENV=development the development log is used).
 */
import { adminMain } from './admin-commands.ts';

process.exit(await adminMain(process.argv.slice(2)));
