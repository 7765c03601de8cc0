import { Link } from '@tanstack/react-router';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { BulletList, MailLink, PolicyHeader, PolicySection } from './PolicyParts.tsx';
import { useSupportEmail } from './supportEmail.ts';

export const POLICY_LAST_UPDATED = '21 November 2026';

/** Spec section 2 (Privacy policy): every section the spec lists, under Indian law. */
export function PrivacyPolicyPage() {
  usePageTitle('Privacy Policy');
  const supportEmail = useSupportEmail();

  return (
    <article className="grid gap-8 pb-10">
      <PolicyHeader title="Privacy Policy" updated={POLICY_LAST_UPDATED}>
        <p className="text-[15px] leading-relaxed text-slate-700">
          This policy explains what personal data Kamai collects when you use our app, why we collect it, who we share it with and
          the choices you have. Please read it together with the steps on our{' '}
          <Link to="/delete-account" className="font-medium text-emerald-700 hover:underline">
            account deletion
          </Link>{' '}
          page.
        </p>
      </PolicyHeader>

      <PolicySection id="introduction" title="1. Introduction">
        <p>
          Kamai (“Kamai”, “we”, “us”) runs a mobile web app in which people in India earn rupees by completing small tasks, such as
          rating an app, visiting a website or playing a game, and withdraw their earnings to a bank account or UPI ID.
        </p>
        <p>
          We process your personal data as a Data Fiduciary under the Digital Personal Data Protection Act, 2023 (“DPDP Act”), and
          we follow the Information Technology Act, 2000 and the rules made under it, including the Information Technology
          (Reasonable Security Practices and Procedures and Sensitive Personal Data or Information) Rules, 2011. By creating an
          account you consent to the processing described here for the purposes described here. You may withdraw that consent at
          any time, as explained under “Your rights”.
        </p>
      </PolicySection>

      <PolicySection id="information-we-collect" title="2. Information We Collect">
        <p>We collect only what we need to run your account, check your tasks and pay you:</p>
        <BulletList>
          <li>
            <strong>Account details:</strong> your mobile number, first and last name, and, if you choose to add it, your e-mail
            address. Your password is never stored as typed; we keep only a one-way cryptographic hash of it.
          </li>
          <li>
            <strong>Task activity:</strong> which tasks you start and finish, the proof screenshots and descriptions you upload,
            and the outcome of our review.
          </li>
          <li>
            <strong>Identity verification (KYC):</strong> images of the front and back of your PAN Card and Voter ID, and the
            result of our review.
          </li>
          <li>
            <strong>Wallet and payouts:</strong> your balance, every credit and debit, your withdrawal requests, and where you ask
            us to send money: a bank account number, IFSC code and account holder name, or a UPI ID.
          </li>
          <li>
            <strong>Preferences:</strong> whether you want to receive notifications, and which notifications you have read.
          </li>
          <li>
            <strong>Technical data:</strong> your IP address, browser and device type, and the times of your requests, which our
            servers record to keep the service secure and working.
          </li>
        </BulletList>
      </PolicySection>

      <PolicySection id="how-we-use-it" title="3. How We Use Your Information">
        <BulletList>
          <li>To create and secure your account and keep you signed in.</li>
          <li>To show you tasks, review the proof you submit and credit the rewards you earn.</li>
          <li>To process your withdrawals to the bank account or UPI ID you give us.</li>
          <li>To verify your identity, pay the KYC bonus, and prevent fraud, duplicate accounts and misuse of rewards.</li>
          <li>To send you notifications about your tasks, rewards and withdrawals, if you have them switched on.</li>
          <li>To answer your questions and requests to our support team.</li>
          <li>To meet our obligations under Indian law, including tax, accounting and anti-money-laundering requirements.</li>
        </BulletList>
        <p>We do not use your personal data for advertising profiles and we do not sell it.</p>
      </PolicySection>

      <PolicySection id="sharing" title="4. Sharing Your Information">
        <p>We share personal data only where needed, and only as much as needed:</p>
        <BulletList>
          <li>
            <strong>Banks and payment providers</strong> receive the payout details and amount of each withdrawal so they can
            transfer your money.
          </li>
          <li>
            <strong>Service providers</strong> who host our servers and store files for us process data on our instructions, under
            contracts that require them to keep it confidential and secure.
          </li>
          <li>
            <strong>Task partners</strong> may learn that a task was completed, but not your mobile number, documents or payout
            details.
          </li>
          <li>
            <strong>Government and law enforcement authorities</strong>, when Indian law, a court order or a lawful request
            requires us to disclose information.
          </li>
          <li>
            <strong>A successor business</strong>, if Kamai is merged or acquired, which must continue to protect your data as this
            policy describes.
          </li>
        </BulletList>
      </PolicySection>

      <PolicySection id="security" title="5. Data Security">
        <p>
          We protect your data with reasonable security practices: connections are encrypted, passwords are stored only as hashes,
          your proof images and KYC documents are private files that only you and authorised Kamai staff can open, and staff access
          is limited by role (task review, finance, administration) and recorded. No system is perfectly secure; if a personal data
          breach happens, we will inform you and the Data Protection Board of India as the DPDP Act requires.
        </p>
        <p>Never share your password or one-time codes with anyone. Kamai staff will never ask you for them.</p>
      </PolicySection>

      <PolicySection id="retention" title="6. Data Retention">
        <p>
          We keep your personal data while your account is open. When you delete your account, or when it has been inactive for a
          long time, we erase your personal data, except records that Indian law requires us to keep: wallet transactions and
          withdrawal and payout records for up to eight years under tax and accounting laws, and identity verification records for
          as long as the law requiring them says. Such records are stored securely, used for no other purpose, and deleted at the
          end of that period.
        </p>
      </PolicySection>

      <PolicySection id="your-rights" title="7. Your Rights">
        <p>Under the DPDP Act you have the right to:</p>
        <BulletList>
          <li>get a summary of the personal data we hold about you and of how we process it;</li>
          <li>have inaccurate or incomplete data corrected, completed or updated (you can edit your name and e-mail in the app);</li>
          <li>have your personal data erased, by deleting your account;</li>
          <li>withdraw your consent, which closes your account, since we cannot run it without your data;</li>
          <li>nominate another person to exercise these rights on your behalf in the event of your death or incapacity;</li>
          <li>have your grievances addressed by us, and then, if you are not satisfied, complain to the Data Protection Board of India.</li>
        </BulletList>
        <p>
          To use any of these rights, write to <MailLink email={supportEmail} /> from your registered e-mail address or mention your
          registered mobile number. We may ask you to confirm your identity before we act on a request.
        </p>
      </PolicySection>

      <PolicySection id="cookies" title="8. Cookies">
        <p>
          We use a single essential cookie that keeps you signed in. It holds a random session identifier, not your personal details,
          and it expires when your session ends or you log out. We do not use advertising or third-party tracking cookies. If you
          block cookies in your browser, you will not be able to sign in.
        </p>
      </PolicySection>

      <PolicySection id="third-party-links" title="9. Third-Party Links">
        <p>
          Many tasks take you to other apps, websites and games. Those services are run by others, who collect data under their own
          privacy policies. We are not responsible for their practices, so please read their policies before you share anything
          with them.
        </p>
      </PolicySection>

      <PolicySection id="children" title="10. Children's Privacy (Under 18)">
        <p>
          Kamai is only for people aged 18 or older. We do not knowingly collect personal data from anyone under 18. If we learn that
          an account belongs to someone under 18, we will close it and delete its personal data. If you believe a child has given us
          personal data, please write to <MailLink email={supportEmail} />.
        </p>
      </PolicySection>

      <PolicySection id="international-transfers" title="11. International Data Transfers">
        <p>
          We store and process your personal data in India wherever we can. If a service provider processes it outside India, we
          transfer it only to countries the Government of India has not restricted under the DPDP Act, and only with contractual
          safeguards that protect it as this policy does.
        </p>
      </PolicySection>

      <PolicySection id="changes" title="12. Changes to This Policy">
        <p>
          We may update this policy when our service or the law changes. The date at the top shows the latest version. If a change
          affects how we use your personal data in an important way, we will tell you in the app before it takes effect.
        </p>
      </PolicySection>

      <PolicySection id="contact" title="13. Contact Us">
        <p>
          For questions about this policy, requests about your data, or complaints, write to our support mailbox, which also reaches
          our Grievance Officer: <MailLink email={supportEmail} />. We acknowledge every message and aim to resolve grievances
          within 30 days.
        </p>
        <p>
          This policy is governed by the laws of India, and the courts of India have jurisdiction over any dispute arising from it.
        </p>
      </PolicySection>
    </article>
  );
}
