import { useTranslation } from 'react-i18next';
import * as Switch from '@radix-ui/react-switch';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { FirstName, LastName, OptionalEmail } from '@kamai/contracts';
import type { UserBody } from '@kamai/contracts';
import { FormActions } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { NameFields, TextField } from '../../components/fields.tsx';
import { serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { changedProfileFields } from './profileChanges.ts';
import { useUpdateProfileMutation } from './profileMutations.ts';

/** The text fields of the form, checked with the same rules the API applies. */
const ProfileForm = v.object({ firstName: FirstName, lastName: LastName, email: OptionalEmail });

/** Profile: first name, last name, optional e-mail and the notifications toggle. */
export function EditProfileDialog({ open, onOpenChange, user }: { open: boolean; onOpenChange: (open: boolean) => void; user: UserBody }) {
  const { t } = useTranslation('profile');
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('edit.title')} description={t('edit.description')}>
      <EditProfileForm user={user} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function EditProfileForm({ user, onDone }: { user: UserBody; onDone: () => void }) {
  const update = useUpdateProfileMutation();
  const { t } = useTranslation('profile');
  const switchId = useId();
  const form = useSchemaForm(ProfileForm, {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email ?? '',
  });
  const [notificationsEnabled, setNotificationsEnabled] = useState(user.notificationsEnabled);

  const onSubmit = form.handleSubmit(async ({ firstName, lastName, email }) => {
    const changes = changedProfileFields(user, { firstName, lastName, email, notificationsEnabled });
    if (Object.keys(changes).length === 0) {
      toast({ title: t('errors:noChanges'), description: t('errors:noChangesBody') });
      onDone();
      return;
    }
    try {
      await update.mutateAsync(changes);
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: t('errors:updateFailed'), description: t('errors:updateFailedBody') });
      return;
    }
    toast({ title: t('errors:profileUpdated'), description: t('edit.saved') });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <NameFields firstName={form.field('firstName')} lastName={form.field('lastName')} />
      <TextField
        label={t('edit.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...form.field('email')}
      />
      <div className="flex items-center justify-between gap-4 rounded-xl border border-slate-200 p-3">
        <label htmlFor={switchId} className="grid gap-0.5">
          <span className="text-sm font-medium text-slate-800">{t('edit.notifications')}</span>
          <span className="text-xs text-slate-500">{t('edit.notificationsHint')}</span>
        </label>
        <Switch.Root
          id={switchId}
          checked={notificationsEnabled}
          onCheckedChange={setNotificationsEnabled}
          // The target is 44 px tall around the drawn 48×28 track (WCAG 2.5.5, the app's own rule).
          className="group grid min-h-11 w-12 shrink-0 place-items-center rounded-full focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2"
        >
          <span className="relative block h-7 w-12 rounded-full bg-slate-300 transition group-data-[state=checked]:bg-emerald-600">
            <Switch.Thumb className="mt-0.5 block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
          </span>
        </Switch.Root>
      </div>
      <FormActions submitLabel={t('edit.save')} pendingLabel={t('edit.saving')} pending={update.isPending} onCancel={onDone} className="mt-2" />
    </form>
  );
}
