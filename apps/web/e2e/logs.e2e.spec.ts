/**
 * No personal data in the API's logs (issue 34): a person registers, proves a task with an image, is
 * credited through the finance screen, asks for a payout to their UPI ID and edits their profile, all
 * through the screens; then the server's log file, and every log file the browser suites of this run
 * left under E2E_LOG_DIR, are searched for each test person's mobile number and names.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawPng } from './png.ts';
import { E2E_LOG_DIR, E2E_PEOPLE_FILE, grantRole } from './harness.ts';
import { applyAdjustment, openFinanceScreen, registeredAccount, setUpBrowserSuite, taskByApi, testAccount, toasts } from './helpers.ts';

const suite = setUpBrowserSuite();

const UPI = 'kalindixq.payouts@okaxis';
const TASK = 'Rate the Kamai app (logs)';

/** The words the logs must never hold of one person. */
const needlesOf = (person: { mobile: string; firstName: string; lastName: string }) => [person.mobile, person.firstName, person.lastName];

/** Which needles occur in which log files, as `file: needle`. */
function hits(files: string[], needles: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const needle of new Set(needles)) if (text.includes(needle)) found.push(`${file}: ${needle}`);
  }
  return found;
}

describe('the API logs of a browser run', () => {
  it('hold no test person\'s mobile number or name', async () => {
    const admin = await registeredAccount(suite.server, 'Adhirajqv', 'Logsadminz');
    grantRole(suite.server, admin.mobile, 'admin');
    const finance = await registeredAccount(suite.server, 'Falgunixq', 'Logsfinancez');
    grantRole(suite.server, finance.mobile, 'finance');
    const person = testAccount('Kalindixq', 'Vembuzzar');

    // Registration, through the screen.
    const page = await suite.phone();
    await page.goto('/register');
    await page.getByLabel('First name').fill(person.firstName);
    await page.getByLabel('Last name').fill(person.lastName);
    await page.getByLabel('Mobile number').fill(person.mobile);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Hello, ${person.firstName}` }).waitFor();

    // A proof with an image, through the task's dialog.
    await taskByApi(suite, admin, { title: TASK, taskType: 'rating' });
    await page.goto('/tasks/rating');
    await page.getByRole('article', { name: TASK }).getByRole('button', { name: 'Submit Proof' }).click();
    const proof = page.getByRole('dialog', { name: `Submit Proof - ${TASK}` });
    await proof.getByLabel('Proof image').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: drawPng(64, 40, (x) => [20, x * 3, 200]) });
    await toasts(page).getByText('Image Uploaded', { exact: true }).waitFor();
    await proof.getByLabel(/^(Description|Your review \(the words you wrote\))$/).fill(`Rated it, ${person.firstName} ${person.lastName}`);
    await proof.getByRole('button', { name: 'Submit Proof' }).click();
    await proof.waitFor({ state: 'detached' });

    // Credited through the finance screen, which takes the mobile number.
    await applyAdjustment(await openFinanceScreen(await suite.signedIn(finance)), { mobile: person.mobile, amount: '150', reason: 'Logs check' });

    // A payout to a UPI ID, through the wallet.
    await page.goto('/wallet');
    await page.getByTestId('wallet-balance').getByText('₹150.00').waitFor();
    await page.getByRole('button', { name: 'Withdraw Money' }).click();
    const withdraw = page.getByRole('dialog', { name: /^Withdraw to (Bank|UPI)$/ });
    await withdraw.getByLabel('Amount (₹)').fill('100');
    await withdraw.getByRole('radio', { name: 'UPI ID' }).check();
    await withdraw.getByRole('textbox', { name: 'UPI ID' }).fill(UPI);
    await withdraw.getByRole('button', { name: 'Submit Request' }).click();
    await withdraw.getByTestId('withdraw-confirm').getByRole('button', { name: 'Confirm and send' }).click();
    await toasts(page).getByText('Withdrawal Requested', { exact: true }).waitFor();

    // The profile, edited.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Profile' });
    await edit.getByLabel('Last name').fill(`${person.lastName}an`);
    await edit.getByLabel('E-mail (optional)').fill('kalindixq@example.in');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'detached' });

    // Stopped, so everything it printed is in its file.
    await suite.server.stop();
    const own = hits([suite.server.logFile], [...needlesOf(person), `${person.lastName}an`, 'kalindixq@example.in', UPI, ...needlesOf(admin), ...needlesOf(finance)]);
    expect(own, suite.server.output()).toEqual([]);

    // And the logs every browser suite of this run left so far, for every test person they noted.
    const people = readFileSync(E2E_PEOPLE_FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { mobile: string; firstName: string; lastName: string });
    const logs = readdirSync(E2E_LOG_DIR).filter((name) => name.endsWith('.log')).map((name) => join(E2E_LOG_DIR, name));
    expect(hits(logs, people.flatMap(needlesOf))).toEqual([]);
  });
});
