import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';
import { MediaController, MediaFilesController } from './media.controller';
import { MediaService } from './media.service';
import { MediaStore } from './media-store';

@Module({
  controllers: [MediaController, MediaFilesController],
  providers: [
    MediaService,
    MediaStore,
    {
      provide: FileStorage,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new LocalFileStorage(
          join(config.dataDir, 'media'),
          `${(config.publicUrl ?? '').replace(/\/+$/, '')}/media/files`,
        ),
    },
  ],
  exports: [MediaService, MediaStore, FileStorage],
})
export class MediaModule {}
