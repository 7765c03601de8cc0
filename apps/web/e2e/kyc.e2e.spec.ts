import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerAccount } from './harness.ts';
import type { TestAccount } from './harness.ts';
import { expectAccessible, path, sessionCookie, setUpBrowserSuite, signIn, staffAccount, testAccount } from './helpers.ts';
import { drawPng } from './png.ts';

/**
 * KYC end to end, on phones: a new user uploads the front and back of a PAN Card and a Voter ID, a
 * reviewer approves one and rejects the other with a reason, the user sees the reason and uploads
 * again, the reviewer approves, and the user claims the ₹200 bonus once and sees it in the wallet.
 */

const suite = setUpBrowserSuite();
const { phone } = suite;

let reviewer: TestAccount;

beforeAll(async () => {
  reviewer = await staffAccount(suite.server, 'Rekha', 'Verma', 'reviewer');
});


/** The toast on screen, by text (an open modal dialog hides the rest of the page from roles). */
async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  await page.locator('.toast').getByText(title, { exact: true }).waitFor();
  if (description) await page.locator('.toast').getByText(description, { exact: true }).waitFor();
}

const card = (page: Page, name: 'PAN Card' | 'Voter ID') => page.getByRole('article', { name });
const expectBadge = (locator: Locator, label: string) => locator.getByTestId('kyc-status').filter({ hasText: label }).waitFor();

/** A photo-sized card of one tint per image, with a dark stripe: every upload differs. */
const cardPng = (tint: number) =>
  drawPng(171, 108, (x, y) => (y > 20 && y < 30 ? [30, 30, 30] : [(tint * 53 + x) % 256, (tint * 97 + y) % 256, 200]));

let tint = 0;
const nextImage = (name: string) => ({ name, mimeType: 'image/png', buffer: cardPng((tint += 1)) });

/** Uploads the front and back of one document on /kyc; the card submits itself once both are in. */
async function uploadDocument(page: Page, name: 'PAN Card' | 'Voter ID'): Promise<void> {
  const documentCard = card(page, name);
  await documentCard.getByLabel(`${name} Front image`).setInputFiles(nextImage('front.png'));
  await expectToast(page, 'Image Uploaded');
  await documentCard.getByLabel(`${name} Back image`).setInputFiles(nextImage('back.png'));
  await expectToast(page, 'Document Uploaded', `Your ${name} has been submitted for review.`);
  await expectBadge(documentCard, 'Pending review');
  // The stored (re-encoded) images are shown, not the upload slots.
  await documentCard.getByRole('img', { name: `${name} Front` }).waitFor();
  await expect(documentCard.getByLabel(`${name} Front image`).count()).resolves.toBe(0);
}

/** The reviewer's queue card of a document of this user. */
const queueCard = (page: Page, name: 'PAN Card' | 'Voter ID', user: TestAccount) =>
  page.getByRole('article', { name }).filter({ hasText: `+91 ${user.mobile}` });

describe('KYC from upload to the ₹200 bonus', () => {
  it('uploads four images, is reviewed, re-uploads a rejected document, claims the bonus once', async () => {
    const user = testAccount('Usha', 'Patel');
    await registerAccount(suite.server.baseUrl, user);

    // Home's banner leads to /kyc while KYC is not complete.
    const userPage = await phone();
    await signIn(userPage, user);
    const banner = userPage.getByTestId('kyc-banner');
    await banner.getByText('Verify your identity and earn ₹200.00').waitFor();
    await banner.click();
    await userPage.waitForURL((url) => url.pathname === '/kyc');
    await userPage.getByRole('heading', { name: 'KYC Verification' }).waitFor();
    await expectBadge(card(userPage, 'PAN Card'), 'Not uploaded');
    await expectBadge(card(userPage, 'Voter ID'), 'Not uploaded');
    await expectAccessible(userPage, 'KYC, nothing uploaded');

    await uploadDocument(userPage, 'PAN Card');
    await uploadDocument(userPage, 'Voter ID');

    // The reviewer opens the queue from Profile, and from the proof review screen.
    const reviewerPage = await phone();
    await signIn(reviewerPage, reviewer);
    await reviewerPage.goto('/profile');
    await reviewerPage.getByRole('link', { name: 'KYC review' }).click();
    await reviewerPage.waitForURL((url) => url.pathname === '/admin/kyc');
    await reviewerPage.getByRole('heading', { name: 'KYC Review' }).waitFor();
    const pan = queueCard(reviewerPage, 'PAN Card', user);
    await pan.getByText('Usha Patel').waitFor();
    // Both images side by side; tap one to enlarge it.
    await expect(pan.getByRole('img').count()).resolves.toBe(2);
    await expectAccessible(reviewerPage, 'KYC review queue');
    await pan.getByRole('button', { name: 'Enlarge PAN Card Front' }).click();
    const enlarged = reviewerPage.getByRole('dialog', { name: 'PAN Card Front' });
    await enlarged.getByRole('img', { name: 'PAN Card Front' }).waitFor();
    const loaded = await enlarged.getByRole('img').evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth);
    expect(loaded).toBe(171);
    await reviewerPage.keyboard.press('Escape');
    await enlarged.waitFor({ state: 'detached' });

    // Approving can release the ₹200 bonus, so it asks first, naming the person and the document.
    const approvePan = pan.getByRole('button', { name: 'Approve' });
    await approvePan.click();
    const confirm = reviewerPage.getByRole('dialog', { name: 'Approve this document?' });
    await confirm.getByText(`Usha Patel's PAN Card (+91 ${user.mobile}) will be marked as verified.`).waitFor();
    await confirm.getByText('Once both documents are approved, Usha Patel can claim the ₹200.00 KYC bonus.').waitFor();
    await expectAccessible(reviewerPage, 'KYC approval confirmation');
    // Cancel changes nothing: the document stays in the queue and focus returns to its Approve.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => approvePan.evaluate((button) => button === document.activeElement)).toBe(true);
    await reviewerPage.reload();
    await pan.getByRole('button', { name: 'Approve' }).click();
    await confirm.getByRole('button', { name: 'Approve PAN Card' }).click();
    await expectToast(reviewerPage, 'Document Approved');
    await pan.waitFor({ state: 'detached' });

    const voter = queueCard(reviewerPage, 'Voter ID', user);
    await voter.getByRole('button', { name: 'Reject' }).click();
    const rejectDialog = reviewerPage.getByRole('dialog', { name: 'Reject document' });
    await rejectDialog.getByLabel('Reason').fill('The photo is blurry');
    await rejectDialog.getByRole('button', { name: 'Reject' }).click();
    await expectToast(reviewerPage, 'Document Rejected');
    await voter.waitFor({ state: 'detached' });

    // The user sees the outcome and the reason, and uploads the rejected document again.
    await userPage.reload();
    await expectBadge(card(userPage, 'PAN Card'), 'Approved');
    const voterCard = card(userPage, 'Voter ID');
    await expectBadge(voterCard, 'Rejected');
    await voterCard.getByText('Reason: The photo is blurry').waitFor();
    await expect(userPage.getByTestId('kyc-claim').count()).resolves.toBe(0);
    await expectAccessible(userPage, 'KYC, one approved and one rejected');
    await uploadDocument(userPage, 'Voter ID');

    // The reviewer approves the new submission (reached from the proof review screen by the staff navigation).
    await reviewerPage.goto('/admin/review');
    await reviewerPage.getByTestId('staff-nav').getByRole('link', { name: 'KYC review' }).click();
    await reviewerPage.waitForURL((url) => url.pathname === '/admin/kyc');
    await queueCard(reviewerPage, 'Voter ID', user).getByRole('button', { name: 'Approve' }).click();
    await reviewerPage.getByRole('dialog', { name: 'Approve this document?' }).getByRole('button', { name: 'Approve Voter ID' }).click();
    await expectToast(reviewerPage, 'Document Approved');

    // Both approved: the claim banner; claiming credits ₹200 once.
    await userPage.reload();
    await expectBadge(card(userPage, 'Voter ID'), 'Approved');
    const claim = userPage.getByTestId('kyc-claim');
    await claim.getByRole('button', { name: 'Claim ₹200.00' }).click();
    await expectToast(userPage, 'KYC Completed!', '₹200.00 has been added to your wallet');
    await userPage.getByTestId('kyc-completed').getByText('KYC Completed!').waitFor();
    await expect(claim.count()).resolves.toBe(0);
    await expectAccessible(userPage, 'KYC completed');

    await userPage.goto('/wallet');
    const bonusRow = userPage.getByRole('listitem').filter({ hasText: 'KYC verification bonus' });
    await expect(bonusRow.getByTestId('amount').textContent()).resolves.toBe('+₹200.00');
    await userPage.goto('/profile');
    await userPage.getByRole('link', { name: /Verify identity \(KYC\)/ }).getByText('Completed').waitFor();
    await userPage.goto('/');
    await userPage.getByRole('heading', { name: 'Hello, Usha' }).waitFor();
    await expect(userPage.getByTestId('kyc-banner').count()).resolves.toBe(0);
    expect(path(userPage)).toBe('/');

    // A second claim is refused, and the balance stays.
    const cookie = await sessionCookie(suite.server, user);
    const second = await fetch(`${suite.server.baseUrl}/api/kyc/complete`, { method: 'POST', headers: { cookie, origin: suite.server.baseUrl } });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('kyc_bonus_already_claimed');
    const me = (await (await fetch(`${suite.server.baseUrl}/api/auth/user`, { headers: { cookie } })).json()) as { totalRupees: string; kycStatus: string };
    expect(me).toMatchObject({ totalRupees: '200.00', kycStatus: 'bonus_claimed' });
  });
});

describe('the PAN number on the PAN card', () => {
  it('holds the card while the PAN is incomplete, submits it with the PAN, and shows it back masked', async () => {
    const user = testAccount('Pallavi', 'Joshi');
    await registerAccount(suite.server.baseUrl, user);
    const page = await phone();
    await signIn(page, user);
    await page.goto('/kyc');
    const pan = card(page, 'PAN Card');
    const field = pan.getByLabel('PAN number (optional)');

    // An incomplete PAN is named wrong (the contracts' rule and text) and holds the automatic submission.
    await field.fill('bnzpm25');
    await pan.getByText('Enter the PAN as printed on the card, like ABCDE1234F').waitFor();
    await pan.getByLabel('PAN Card Front image').setInputFiles(nextImage('front.png'));
    await expectToast(page, 'Image Uploaded');
    await pan.getByLabel('PAN Card Back image').setInputFiles(nextImage('back.png'));
    await pan.getByTestId('kyc-uploaded').nth(1).waitFor();
    await expectAccessible(page, 'KYC, PAN incomplete');
    await expectBadge(pan, 'Not uploaded');

    // Completing it submits the card; the number comes back masked, never whole.
    await field.fill('bnzpm2501q');
    await expectToast(page, 'Document Uploaded', 'Your PAN Card has been submitted for review.');
    await expectBadge(pan, 'Pending review');
    await pan.getByTestId('kyc-pan-number').getByText('PAN: XXXXXX501Q', { exact: true }).waitFor();
    expect(await page.content()).not.toContain('BNZPM2501Q');
    const cookie = await sessionCookie(suite.server, user);
    const documents = (await (await fetch(`${suite.server.baseUrl}/api/kyc/documents`, { headers: { cookie } })).json()) as Array<{ documentType: string; panNumber: string | null }>;
    expect(documents.find((d) => d.documentType === 'pan')?.panNumber).toBe('XXXXXX501Q');
    await expectAccessible(page, 'KYC, PAN submitted');
  });
});
