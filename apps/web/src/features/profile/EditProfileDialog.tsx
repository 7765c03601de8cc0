import * as Switch from '@radix-ui/react-switch';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { FirstName, LastName, OptionalEmail, PROFILE_MESSAGES } from '@kamai/contracts';
import type { UserBody } from '@kamai/contracts';
import { FormActions } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { NameFields, TextField } from '../../components/fields.tsx';
import { serverFieldErrors } from '../../lib/api.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { changedProfileFields } from './profileChanges.ts';
import { useUpdateProfileMutation } from './profileMutations.ts';

/** The text fields of the form, checked with the same rules the API applies (spec section 5). */
const ProfileForm = v.object({ firstName: FirstName, lastName: LastName, email: OptionalEmail });

/** Spec section 2 (Profile): first name, last name, optional e-mail and the notifications toggle. */
export function EditProfileDialog({ open, onOpenChange, user }: { open: boolean; onOpenChange: (open: boolean) => void; user: UserBody }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Edit Profile" description="Update your name, e-mail and notification preference.">
      <EditProfileForm user={user} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function EditProfileForm({ user, onDone }: { user: UserBody; onDone: () => void }) {
  const update = useUpdateProfileMutation();
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
      toast({ title: PROFILE_MESSAGES.noChanges.title, description: PROFILE_MESSAGES.noChanges.message });
      onDone();
      return;
    }
    try {
      await update.mutateAsync(changes);
    } catch (error) {
      form.setServerErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: PROFILE_MESSAGES.failed.title, description: PROFILE_MESSAGES.failed.message });
      return;
    }
    toast({ title: PROFILE_MESSAGES.updated, description: 'Your changes have been saved.' });
    onDone();
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <NameFields firstName={form.field('firstName')} lastName={form.field('lastName')} />
      <TextField
        label="E-mail (optional)"
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...form.field('email')}
      />
      <div className="flex items-center justify-between gap-4 rounded-xl border border-slate-200 p-3">
        <label htmlFor={switchId} className="grid gap-0.5">
          <span className="text-sm font-medium text-slate-800">Notifications</span>
          <span className="text-xs text-slate-500">Hear about rewards, reviews and withdrawals</span>
        </label>
        <Switch.Root
          id={switchId}
          checked={notificationsEnabled}
          onCheckedChange={setNotificationsEnabled}
          className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-200 data-[state=checked]:bg-emerald-600"
        >
          <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
      </div>
      <FormActions submitLabel="Save Changes" pendingLabel="Saving..." pending={update.isPending} onCancel={onDone} className="mt-2" />
    </form>
  );
}
